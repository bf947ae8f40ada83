"""DG011: checkpoints holding pickled objects meet `torch.load`'s `weights_only=True` default (H19)."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import replace

from dtypeguard.engine.call_effects import PROTOCOL_WORDS
from dtypeguard.engine.events import TorchSave
from dtypeguard.engine.values import WRITTEN, Const
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def check(ctx: Context) -> Iterator[Finding]:
    ev = ctx.events
    pickled = [s for s in ev.saves if s.saves_pickled]
    if not pickled or ev.safe_globals:  # allow-listed classes load fine with weights_only=True
        return
    out: list[Finding] = []
    at: dict[Span, int] = {}  # a root in the checked file -> its finding in `out`
    for finding in _findings(ctx, pickled):
        if finding.span.file or finding.span not in at:
            # (a root in an imported module is shown at each call of the checked file that
            # reaches it: one finding each)
            at.setdefault(finding.span, len(out))
            out.append(finding)
            continue
        # one checkpoint entry read by several loads (a GPU branch and a CPU one): one finding,
        # each load related where it fails, and each its own `weights_only=False` fix
        first = out[at[finding.span]]
        related = first.related + tuple(r for r in finding.related if r not in first.related)
        fixes = first.fixes + tuple(f for f in finding.fixes if f not in first.fixes)
        out[at[finding.span]] = replace(first, related=related, fixes=fixes)
    yield from out


def _findings(ctx: Context, pickled: list[TorchSave]) -> Iterator[Finding]:
    ev = ctx.events
    for load in ev.loads:
        if all(v.allowed for v in ev.loads if v.span == load.span):
            continue  # after `add_safe_globals([...])` on every path (which classes, is not checked)
        if load.splat or (isinstance(load.weights_only, Const) and load.weights_only.value is False):
            continue
        if "weights_only" in load.keywords and not isinstance(load.weights_only, Const):
            continue
        # the same path as written (and the same file name, or one this run wrote without spelling
        # it: `torch.save(new_ids, ids_file)` after `if os.path.exists(ids_file): torch.load(ids_file)`)
        same_path = [
            s for s in ev.saves
            if s.path and s.path == load.path and (s.file == load.file or (s.file.startswith(WRITTEN) and s.span.file == load.span.file))
        ]
        before = [s for s in same_path if s.time < load.time]
        if before and before[-1].saves_pickled:
            pass  # the last save of this path before the load pickled objects: that is what it reads
        elif any(not s.saves_pickled for s in same_path):
            continue  # it reads back what this file saved without pickled objects (the same path as written)
        # a name written as an f-string ("expr:...") may name any file: only known names rule a save out
        loaded = _spelled(ctx, load.span, load.path)
        matching = [s for s in pickled if _may_name_same(s.file, _spelled(ctx, s.span, s.path), load.file, loaded)]
        read = _reads(ctx, load.span)
        matching = [s for s in matching if _readable(s, read)]
        if not matching:
            continue  # this load reads a file the script saved without pickled objects
        save = before[-1] if before and before[-1].saves_pickled else matching[0]
        # the root cause is what the checkpoint is given: the entry that holds the refused object
        # (`"args": args,`), or the save of a whole object; the load is where it fails
        root = save.pickled_at or save.span
        entry = f"the checkpoint entry at {root.line_ref()}" if save.pickled_at else f"`torch.save` at {root.line_ref()}"
        yield RULE.finding(
            f"{entry} pickles {save.saves_pickled}, which `torch.load` at {load.span.line_ref()} refuses: it defaults to "
            f"`weights_only=True` since PyTorch 2.6 and fails with \"Weights only load failed\"; {_instead(save.saves_pickled)}",
            root,
            related=[
                *([Related(save.span, "saved here")] if save.pickled_at and save.span.line != root.line else []),
                *([Related(save.made.span, f"the NumPy number is made here: {save.made.why}")] if save.made is not None and save.made.span != root else []),
                Related.failing(load.span, "Weights only load failed"),
            ],
            fixes=[
                *([FixSpec(
                    "plain_number",
                    f"Save the NumPy number as a Python number: `{'np.asarray(...).item()' if save.plain == 'item' else save.plain + '(...)'}` at {root.line_ref()}",
                    root, True, (("func", save.plain),),
                )] if save.plain and save.pickled_at else []),
                *([FixSpec(
                    "allow_globals",
                    f"Allow {', '.join(f'`{n}`' for n in save.allow)} for weights-only loading: `torch.serialization.add_safe_globals([...])` once at the top of the file (before {load.span.line_ref()} when code above could load first)",
                    load.call_end, True, (("names", ",".join(save.allow)),),
                )] if save.allow else []),
                FixSpec("add_kwarg", f"Add `weights_only=False` at {load.span.line_ref()} (only for files you trust)", load.span, False, (("name", "weights_only"), ("value", "False"))),
            ],
            note="Better: save `model.state_dict()` instead of the whole object, and load it into a freshly built model.",
        )


def _instead(pickled: str) -> str:
    """What to save instead: an array as a tensor (code that reads it back as an array keeps
    working after `.numpy()`; a list would not do array arithmetic), anything else as plain values."""
    if pickled.startswith(PROTOCOL_WORDS):
        return "save with the default protocol (drop `pickle_protocol`) instead"
    if "NumPy array" in pickled:
        return "save it as a tensor (`torch.from_numpy(x)`, and `.numpy()` after loading) instead"
    return "save plain values (`vars(args)`, `float(x)`, `.tolist()`, a `state_dict()`) instead"


_MAPPING = ("items", "keys", "values", "get")


def _reads(ctx: Context, at: Span) -> tuple[frozenset[str], bool] | None:
    """How the checked file reads what the `torch.load` at `at` returns: the string keys it
    subscripts (`ckpt["epoch"]`), and whether it reads it as a mapping at all (keys, `.items()`);
    None where that is not readable here (a load in another file, or a value passed on)."""
    if at.file or ctx.tree is None:
        return None
    found = ctx.memo("dg011-load-calls", lambda: _load_calls(ctx.tree)).get((at.line, at.col))
    if found is None:
        return None
    call, scope, name = found
    keys: set[str] = set()
    mapping = False
    for node in ast.walk(scope):
        base = node.value if isinstance(node, (ast.Subscript, ast.Attribute)) else None
        if base is None or not (base is call or (name and isinstance(base, ast.Name) and base.id == name)):
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            keys.add(node.slice.value)
            mapping = True
        elif isinstance(node, ast.Attribute) and node.attr in _MAPPING:
            mapping = True
    return frozenset(keys), mapping


def _load_calls(tree: ast.Module | None) -> dict[tuple[int, int], tuple[ast.Call, ast.AST, str]]:
    """The file's `load(...)` calls by position (where a `torch.load` is recorded): the call, the innermost
    function around it (or the module), and the name it is assigned to ("" when none). One walk
    per check."""
    out: dict[tuple[int, int], tuple[ast.Call, ast.AST, str]] = {}
    if tree is None:
        return out
    named: dict[int, str] = {}
    stack: list[tuple[ast.AST, ast.AST]] = [(tree, tree)]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            named[id(node.value)] = node.targets[0].id
        func = node.func if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Call) and ((isinstance(func, ast.Attribute) and func.attr == "load") or (isinstance(func, ast.Name) and func.id == "load")):
            out[(node.lineno, node.col_offset)] = (node, scope, "")  # (`torch.load(...)`, `load(...)`; not `torch.load(p).items()` around it)
        inner = node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else scope
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return {at: (call, scope, named.get(id(call), "")) for at, (call, scope, _) in out.items()}


def _readable(save: TorchSave, read: tuple[frozenset[str], bool] | None) -> bool:
    """Could the load read what `save` wrote? Not when it reads a key the saved dict does not
    have, nor when it reads a saved object of the script's own class as a mapping."""
    if read is None:
        return True
    keys, mapping = read
    if save.whole and mapping:
        return False
    return save.keys is None or keys <= set(save.keys)


def _may_name_same(save_file: str, save_path: str, load_file: str, load_path: str) -> bool:
    """Could a save and a load name the same file? Known names must be equal; where a name is not
    known, the path as written still spells its tail (`ckpt_dir / f"worker_{rank}.pt"` writes a
    `worker_*.pt`, which a load of `.../main.pt` does not read)."""
    saved = save_file if _named(save_file) else _tail_pattern(save_path)
    loaded = load_file if _named(load_file) else _tail_pattern(load_path)
    if not saved or not loaded:
        return True
    return _pattern(saved).fullmatch(loaded.replace("*", "")) is not None if "*" not in loaded else (
        _pattern(loaded).fullmatch(saved) is not None if "*" not in saved else _compatible(saved, loaded)
    )


def _pattern(glob: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in glob.split("*")), re.DOTALL)


def _compatible(a: str, b: str) -> bool:
    """Two patterns may name one file when their literal heads and tails agree."""
    head_a, head_b = a.split("*", 1)[0], b.split("*", 1)[0]
    tail_a, tail_b = a.rsplit("*", 1)[-1], b.rsplit("*", 1)[-1]
    return (head_a.startswith(head_b) or head_b.startswith(head_a)) and (tail_a.endswith(tail_b) or tail_b.endswith(tail_a))


def _spelled(ctx: Context, at: Span, path: str) -> str:
    """The path as written, through a name the function (or the module) assigns once
    (`cached = os.path.join(d, "cached_{}".format(task))`, then `torch.save(features, cached)`)."""
    if not path.isidentifier() or at.file or ctx.tree is None:
        return path
    tree = ctx.tree
    known = ctx.memo("dg011-spelled", dict)
    if (at, path) not in known:
        functions = ctx.memo("dg011-functions", lambda: [
            n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.body
        ])
        around = [f for f in functions if f.body[0].lineno <= at.line <= (f.end_lineno or f.lineno)]
        scope: ast.AST = max(around, key=lambda f: f.lineno) if around else tree  # the innermost
        values = ctx.memo("dg011-assigned", lambda: _assignments(tree)).get((id(scope), path), [])
        known[(at, path)] = ast.unparse(values[0]) if len(values) == 1 else path
    return known[(at, path)]


def _assignments(tree: ast.Module) -> dict[tuple[int, str], list[ast.expr]]:
    """Every `name = value` of the file by (the scope that holds it, the name), the module and
    each function (with the functions inside it): one walk per check."""
    out: dict[tuple[int, str], list[ast.expr]] = {}
    stack: list[tuple[ast.AST, list[int]]] = [(tree, [id(tree)])]
    while stack:
        node, scopes = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            scopes = [*scopes, id(node)]
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            for scope in scopes:  # (as `ast.walk(scope)` would find it)
                out.setdefault((scope, node.targets[0].id), []).append(node.value)
        stack.extend((child, scopes) for child in ast.iter_child_nodes(node))
    return out


@functools.lru_cache(maxsize=4096)
def _tail_pattern(path: str) -> str:
    """The file name a path expression spells, as a pattern with `*` for its computed parts
    (`d / "main.pt"` -> `main.pt`, `f"{d}/worker_{rank}.pt"` -> `worker_*.pt`, `args.save +
    "_best.pt"` -> `*_best.pt`); "" where it spells none (a bare variable)."""
    try:
        node = ast.parse(path, mode="eval").body if path else None
    except SyntaxError:
        return ""
    parts = _parts(node) if node is not None else None
    if not parts:
        return ""
    text = ""
    for part in reversed(parts):
        if part is None:
            text = "*" + text
            continue
        if "/" in part:
            text = part.rsplit("/", 1)[-1] + text
            break
        text = part + text
    text = re.sub(r"\*+", "*", text)
    return text if text.strip("*") else ""


def _parts(node: ast.expr) -> list[str | None] | None:
    """A path expression as literal text and computed parts (None), from its start."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return [v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else None for v in node.values]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _parts(node.left), _parts(node.right)
        return [*(left or [None]), *(right or [None])]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        right = _parts(node.right)  # `Path / name`: the name is the last part
        return [None, "/", *right] if right else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and isinstance(node.left.value, str):
        return _format_parts(re.sub(r"%[-#0 +]*[\d.]*[a-zA-Z]", "\0", node.left.value))
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name == "format" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str):
            return _format_parts(re.sub(r"\{[^{}]*\}", "\0", func.value.value))
        if name in ("str", "Path", "PurePath", "fspath") and len(node.args) == 1 and not node.keywords:
            return _parts(node.args[0])
        if name in ("join", "joinpath") and node.args and not any(isinstance(a, ast.Starred) for a in node.args):
            # `os.path.join(d, name)`, `root.joinpath("checkpoints", name)`: the name is the last argument
            last = _parts(node.args[-1])
            return [None, "/", *last] if last else None
    return None


def _format_parts(text: str) -> list[str | None]:
    pieces = text.split("\0")
    out: list[str | None] = []
    for i, piece in enumerate(pieces):
        if i:
            out.append(None)
        out.append(piece)
    return out


def _named(file: str) -> bool:
    """A file name that rules other files out: not an expression's, nor a path this run wrote without spelling it."""
    return bool(file) and not file.startswith(("expr:", WRITTEN))


RULE = Rule(
    code="DG011",
    name="torch-load-weights-only",
    severity=Severity.WARNING,
    summary="torch.load defaults to weights_only=True: pickled objects fail to load",
    explanation=(
        "Since PyTorch 2.6, `torch.load` defaults to `weights_only=True` and refuses pickled objects "
        "other than tensors and basic containers. Checkpoints that include whole models, argparse "
        "Namespaces or NumPy scalars fail with \"Weights only load failed\". Save only "
        "`state_dict()`s and Python numbers; allowlist a class with "
        "`torch.serialization.add_safe_globals`, or pass `weights_only=False` only for files you trust."
    ),
    hazards=("H19",),
    reported_at=(
        'where the checkpoint is given the object the weights-only loader refuses: the entry that holds it '
        '(`"args": args,`, `"best_acc": best_acc,` with a NumPy number), or the `torch.save(model, f)` of a whole '
        'object (reported only where the script also saves what it loads); related information at the '
        '`torch.load(...)` that fails under the `weights_only=True` default'
    ),
    errors=(
        ErrorPattern(r"Weights only load failed", "Weights only load failed.", "hazards.md H19"),
    ),
    hint=(
        "torch.load defaults to weights_only=True since 2.6 and refuses pickled objects; "
        "allowlist the class with torch.serialization.add_safe_globals([...]), pass "
        "weights_only=False only for files you trust, or save state_dicts and plain numbers."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(2, 2)\ntorch.save(model, 'm.pt')  # <-\nmodel2 = torch.load('m.pt')\n",
            "import argparse\nimport torch\nfrom torch import nn\nargs = argparse.Namespace(lr=0.1)\nmodel = nn.Linear(2, 2)\ntorch.save({\n    'state_dict': model.state_dict(),\n    'args': args,  # <-\n}, 'c.pt')\nckpt = torch.load('c.pt')\n",
            # a file opened for the save and for the load: the path opened is the file
            "import torch\nclass Workspace:\n    pass\ntorch.save(Workspace(), open('snap.pkl', 'wb'))  # <-\nws = torch.load(open('snap.pkl', 'rb'))\n",
            # another library's config object (packnet-sfm's yacs CfgNode, scan 28)
            "import torch\nfrom yacs.config import CfgNode\nconfig = CfgNode({'name': 'packnet'})\nmodel = torch.nn.Linear(2, 2)\n"
            "torch.save({\n    'config': config,  # <-\n    'state_dict': model.state_dict(),\n}, 'model.ckpt')\nckpt = torch.load('model.ckpt', map_location='cpu')\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(2, 2)\ntorch.save(model.state_dict(), 'm.pt')\nmodel.load_state_dict(torch.load('m.pt'))\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(2, 2)\ntorch.save(model, 'm.pt')\nmodel2 = torch.load('m.pt', weights_only=False)\n",
            # with a `pickle_module` the default is `weights_only=False` (diffusion_policy's `dill`, scan 27)
            "import pickle\nimport torch\nclass Workspace:\n    pass\ntorch.save(Workspace(), 'w.pkl', pickle_module=pickle)\nws = torch.load('w.pkl', pickle_module=pickle)\n",
            # other files than the one pickled, opened or joined (scan 27)
            "import pathlib\nimport torch\nclass Workspace:\n    pass\nout = pathlib.Path('out')\ntorch.save(Workspace(), open('snap.pkl', 'wb'))\n"
            "torch.save({'epoch': 1}, out.joinpath('checkpoints', 'latest.ckpt'))\n"
            "ckpt = torch.load(open('ckpt.pt', 'rb'))\nlast = torch.load(out.joinpath('checkpoints', 'latest.ckpt'))\n",
        ],
    ),
)
