"""What `argparse` makes of a script's options, so settings written as option defaults are known.

Training scripts keep their dtype, device and optimizer settings in `parser.add_argument(...,
default=...)`: `--mixed_precision fp16`, `--adam_epsilon 1e-8`, `--device cuda`. A parser is
recorded as the options it was given; `parse_args()` reading `sys.argv` gives each option's
default as a `Configured` value (the run may pass others), `parse_args([...])` with literal
strings gives exactly what argparse would (`nargs` options take their tokens as a list).
Anything this model does not follow (sub-parsers, custom actions, unknown tokens) leaves that
option, or the whole result, unknown.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtypeguard.engine.values import Configured, Const, FilePath, Sym, TupleV, Value

OPTIONS = "__options__"  # attrs key of a parser: a `ParserOptions` of its `Option`s
_TYPES = {"int": int, "float": float, "str": str}


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    dest: str
    action: str  # store, store_true, store_false, store_const, or "" for one this model does not follow
    kind: str  # int, float, str, or "" when the type is not one of those
    default: Value | None
    const: Value | None = None
    nargs: str = ""  # "+", "*", "?" or a count: how many tokens the option takes


def add_argument(options: tuple[Option, ...], args: list[Value | None], kwargs: dict[str, Value | None]) -> tuple[Option, ...]:
    flags = tuple(a.value for a in args if isinstance(a, Const) and isinstance(a.value, str))
    if not flags or len(flags) != len(args):
        return options
    dest_kw = kwargs.get("dest")
    if isinstance(dest_kw, Const) and isinstance(dest_kw.value, str):
        dest = dest_kw.value
    elif not flags[0].startswith("-"):
        dest = flags[0]
    else:
        longs = [f for f in flags if f.startswith("--")]
        dest = (longs[0] if longs else flags[0]).lstrip("-").replace("-", "_")
    action_kw = kwargs.get("action")
    action = action_kw.value if isinstance(action_kw, Const) and isinstance(action_kw.value, str) else "store" if action_kw is None else ""
    nargs_kw = kwargs.get("nargs")
    nargs = str(nargs_kw.value) if isinstance(nargs_kw, Const) and (nargs_kw.value in ("+", "*", "?") or type(nargs_kw.value) is int) else ""
    if action not in ("store", "store_true", "store_false", "store_const") or ("nargs" in kwargs and (not nargs or action != "store")):
        action = ""
    type_kw = kwargs.get("type")
    kind = type_kw.name.rsplit(".", 1)[-1] if isinstance(type_kw, Sym) and type_kw.name.startswith("builtins.") else "str" if type_kw is None else ""
    kind = kind if kind in _TYPES else ""
    if "default" in kwargs:
        default = kwargs["default"]
        if isinstance(default, Const) and isinstance(default.value, str) and kind in ("int", "float"):
            default = _convert(default.value, kind)  # argparse passes a string default through `type`
    else:
        default = Const(False) if action == "store_true" else Const(True) if action == "store_false" else Const(None)
    if not flags[0].startswith("-") and "default" not in kwargs:
        default = None  # a required positional: whatever the command line says
    return (*tuple(o for o in options if o.dest != dest), Option(flags, dest, action, kind, default, kwargs.get("const"), nargs))


def merge_subcommand(main: tuple[Option, ...], sub: tuple[Option, ...]) -> tuple[Option, ...]:
    """The main parser's options with a subcommand's: an option another subcommand (or the main
    parser) already has with another default is not known (which subcommand runs is not)."""
    out = {o.dest: o for o in main}
    for o in sub:
        had = out.get(o.dest)
        out[o.dest] = o if had is None or had == o else Option(o.flags, o.dest, "", "", None)
    return tuple(out.values())


def set_defaults(options: tuple[Option, ...], kwargs: dict[str, Value | None]) -> tuple[Option, ...]:
    known = {o.dest for o in options}
    updated = tuple(Option(o.flags, o.dest, o.action, o.kind, kwargs[o.dest], o.const, o.nargs) if o.dest in kwargs else o for o in options)
    extra = tuple(Option((), k, "", "", v) for k, v in kwargs.items() if k not in known)
    return updated + extra


def parse_args(options: tuple[Option, ...], argv: Value | None) -> dict[str, Value | None] | None:
    """The namespace's attributes, or None when the command line cannot be followed."""
    if argv is None or (isinstance(argv, Const) and argv.value is None):
        return {o.dest: _configured(o.default) for o in options}
    if not isinstance(argv, TupleV):
        return None
    # a token the analysis cannot read (`["--output_dir", tempfile.mkdtemp()]`) is fine as an
    # option's value, which is then unknown; anywhere else the command line is not followed
    tokens = [str(t.value) if isinstance(t, Const) and isinstance(t.value, str) else None for t in argv.items]
    paths = [t if isinstance(t, FilePath) else None for t in argv.items]  # `os.path.join(out, "checkpoint.pth")`
    values: dict[str, Value | None] = {o.dest: o.default for o in options}
    by_flag = {f: o for o in options for f in o.flags if f.startswith("-")}
    positionals = [o for o in options if o.flags and not o.flags[0].startswith("-")]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token is None:
            return None
        if not token.startswith("-") or token == "-":
            if not positionals:
                return None
            option = positionals.pop(0)
            values[option.dest] = _convert(token, option.kind) if option.action == "store" else None
            i += 1
            continue
        name, eq, inline = token.partition("=")
        flagged = by_flag.get(name)
        if flagged is None or not flagged.action:
            return None
        option = flagged
        if option.action in ("store_true", "store_false", "store_const"):
            if eq:
                return None
            values[option.dest] = Const(option.action == "store_true") if option.action != "store_const" else option.const
            i += 1
            continue
        if option.nargs and not eq:
            # `--image_size 128 128` (nargs="+"): the tokens up to the next option, as a list
            count = int(option.nargs) if option.nargs.isdigit() else None
            taken: list[str] = []
            i += 1
            while i < len(tokens) and (count is None or len(taken) < count) and tokens[i] is not None and not str(tokens[i]).startswith("-"):
                taken.append(str(tokens[i]))
                i += 1
                if option.nargs == "?":
                    break
            if (count is not None and len(taken) != count) or (option.nargs == "+" and not taken):
                return None  # argparse would exit
            if option.nargs == "?":
                values[option.dest] = _convert(taken[0], option.kind) if taken else option.const if option.const is not None else Const(None)
                continue
            items = [_convert(t, option.kind) for t in taken]
            values[option.dest] = TupleV(tuple(items)) if all(v is not None for v in items) else None
            continue
        if eq:
            values[option.dest] = _convert(inline, option.kind)
            i += 1
        elif i + 1 < len(tokens):
            following = tokens[i + 1]
            path = paths[i + 1]
            values[option.dest] = _convert(following, option.kind) if following is not None else path if option.kind == "str" else None
            i += 2
        else:
            return None
    if positionals:
        return None  # argparse would exit: a required positional is missing
    return values


def _convert(text: str, kind: str) -> Value | None:
    if not kind:
        return None
    try:
        return Const(_TYPES[kind](text))
    except ValueError:
        return None


def _configured(value: Value | None) -> Value | None:
    if type(value) is Const and (value.value is None or type(value.value) in (bool, int, float, str)):
        return Configured(value.value)
    return value
