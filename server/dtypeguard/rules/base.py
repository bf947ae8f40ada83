"""What a rule is: a code, words that are true, examples that prove it, and a check.

Like Fixit, a rule carries its own must-trigger and must-not-trigger examples; the test suite
is generated from them so a rule and its proof never drift apart. A rule also carries the
runtime errors `verify` maps to it (`errors`, each with the real torch message it was written
from) and what verify then tells the user (`hint`): `verify/explain.py` builds its table from
the registry, so a rule is one place.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.parse import LineIndex
from dtypeguard.engine.values import DATA_WHYS, WIDE, Origin, Tensor, Value
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span

T = TypeVar("T")


def _first_line(stmt: ast.stmt) -> int:
    """A statement's first line, its decorators included."""
    decorators = getattr(stmt, "decorator_list", None)
    return min([stmt.lineno, *(d.lineno for d in decorators)]) if decorators else stmt.lineno


def _walk_lines(stmt: ast.stmt, lines: list[int] | None) -> Iterator[ast.AST]:
    """`ast.walk(stmt)`, except that nested statements holding none of `lines` (sorted) are not
    entered: a test that accepts only nodes whose text holds a needle has nothing to find in a
    statement whose lines do not (an edited 300-line function is walked only where it matters)."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if lines is not None and isinstance(child, ast.stmt):
                first = bisect.bisect_left(lines, _first_line(child))
                if first == len(lines) or lines[first] > (child.end_lineno or child.lineno):
                    continue
            stack.append(child)


@dataclass
class Context:
    events: Events
    facts: Facts
    index: LineIndex
    text: str
    tree: ast.Module | None = None  # the parsed text, for rules that look at syntax
    _memo: dict[str, Any] = field(default_factory=dict)

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """Indexes several rules share, built once per check (rules stay linear in the file)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[no-any-return]

    def any_node(self, key: str, test: Callable[[ast.AST], bool], needle: str = "") -> bool:
        """`any(test(n) for n in ast.walk(tree))`, for a `test` that reads only the node: once
        per check (`memo`), and once per top-level statement object, the answer kept on the
        statement itself. The incremental checker hands back the very statement objects an
        edit did not touch, so on a keystroke only the edited statements are walked again.
        `needle`: text that any node the test accepts must contain (a name it looks for):
        a file or statement without it is not walked (walking was a third of a cold check)."""
        tree = self.tree
        assert tree is not None
        if needle and needle not in self.text:
            return False

        def compute() -> bool:
            for stmt in tree.body:
                known: dict[str, bool] = stmt.__dict__.setdefault("_dg_any", {})
                hit = known.get(key)
                if hit is None:
                    lines = range(_first_line(stmt), (stmt.end_lineno or stmt.lineno) + 1)
                    marked = [n for n in lines if needle in self.index.line_text(n)] if needle else None
                    hit = known[key] = marked != [] and any(test(n) for n in _walk_lines(stmt, marked))
                if hit:
                    return True
            return False

        return self.memo(key, compute)

    def snippet(self, span: Span) -> str:
        if span.line == span.end_line:
            return self.index.line_text(span.line)[span.col : span.end_col]
        first = self.index.line_text(span.line)[span.col :]
        return first + " ..."

    def device_name(self) -> str:
        """The name this file uses for its device, for fixes (`device` if it has one)."""
        names = [name for name, _ in self.events.device_vars]
        return names[0] if names else ""


@dataclass(frozen=True)
class ErrorPattern:
    """One shape of a runtime error message that `verify` maps to a rule (PyTorch 2.13 wording).

    `recorded` is a real message the row was written from and `source` where it was recorded
    (`hazards.md H06`: shared docs/hazards.md; otherwise a path under tests/);
    tests/verify/test_rule_errors.py checks that the regex matches it and that verify explains
    it as this rule. Rows are tried in registry order, one rule's rows in their order, first
    match wins; `general` rows (a wording several mistakes share, like DG004's "must have the
    same dtype") are tried after every rule's specific rows.
    """

    regex: str
    recorded: str
    source: str
    error_types: tuple[str, ...] = ()  # empty: any exception type
    source_contains: str | None = None  # the row applies only if the script's text has this
    traceback_contains: str | None = None  # ... or its traceback has this
    hint: str | None = None  # overrides the rule's `hint`
    general: bool = False


@dataclass
class Rule:
    code: str
    name: str
    severity: Severity
    summary: str
    explanation: str
    hazards: tuple[str, ...]
    check: Callable[[Context], Iterable[Finding]]
    examples: RuleExamples = field(default_factory=RuleExamples)
    # the runtime errors verify maps to this rule, and what verify says about them
    errors: tuple[ErrorPattern, ...] = ()
    hint: str = ""
    # named parts of `explanation` that the hover over a call repeats: engine/library/call_facts.py
    # writes `{DG001.order}` instead of a copy; each is in `explanation` word for word
    facts: dict[str, str] = field(default_factory=dict)
    # where its findings are reported (the root cause), in words: docs/rule-codes.md's "where"
    # column, which the held-out sets' authors mark their root-cause lines by
    reported_at: str = ""

    def finding(
        self,
        message: str,
        span: Span,
        related: Iterable[Related] = (),
        fixes: Iterable[FixSpec] = (),
        severity: Severity | None = None,
        note: str = "",
    ) -> Finding:
        return Finding(
            code=self.code,
            severity=severity or self.severity,
            message=message,
            span=span,
            rule=self.name,
            related=tuple(related),
            fixes=tuple(fixes),
            note=note,
        )


def tensor(value: Value | None) -> Tensor | None:
    return value if isinstance(value, Tensor) and value.kind == "tensor" else None


def dtype_words(dtype: str | None) -> str:
    return {
        "float64": "float64 (Double)", "float32": "float32 (Float)", "float16": "float16 (Half)",
        "bfloat16": "bfloat16", "int64": "int64 (Long)", "int32": "int32 (Int)", "uint8": "uint8 (Byte)",
        WIDE: "int64 or float64 (pandas' numbers from a file)",
    }.get(dtype or "", dtype or "unknown")


def convert_fix(ctx: Context, value: Tensor, use_span: Span | None, dtype: str, why: str, dtype_expr: str = "") -> list[FixSpec]:
    """Convert where the tensor is created (every later use is fixed at once), else at the use.

    With `dtype_expr` (an expression for the dtype, `next(model.parameters()).dtype`, valid where
    the tensor is created), the conversion follows it instead of naming `dtype`: for a line
    that runs with models of different dtypes."""
    if dtype_expr:
        return _follow_fix(ctx, value, dtype_expr, why)
    method = {"float32": "float", "float64": "double", "float16": "half", "bfloat16": "bfloat16", "int64": "long"}.get(dtype)
    if method is None:
        return []
    torch_dtype = f"torch.{dtype}"
    origin = value.origin
    # converting where it is used comes last: for a tensor that is also used as something else
    # (an integer column that is both a layer's input and a class-index target), where
    # converting it at its creation would break the other use; and for one that arithmetic
    # with other tensors widens again on its way (`(frames.half() - mean) / std` is float32)
    at_use = [FixSpec("append_call", f"Convert where it is used ({use_span.line_ref()}): `.{method}()` ({why})", use_span, True, (("method", method),))] if (
        use_span is not None and value.site is not None and not value.site.file and not _encloses(use_span, value.site) and not _encloses(value.site, use_span)) else []
    recast = _recast_fix(ctx, origin, method, why) if origin is not None and origin.span != value.site else []
    if recast and origin is not None:
        # `model(images.double())` of float32 images (EfficientNet-3D, set 94): the cast makes the
        # wrong dtype, so it is the cast that changes, not the images where they were made (where
        # it is used, if the value widens again on its way)
        return [*recast, *(f for f in at_use if not _encloses(f.span, origin.span) and not _encloses(origin.span, f.span))]
    if value.site is not None and origin is not None and origin.why.startswith(".") and origin.span != value.site and _encloses(origin.span, value.site):
        # `torch.from_numpy(mask).float()`: converting the inner call would be undone by the cast
        after_cast = FixSpec("append_call", f"Convert after the cast: `.{method}()` ({why})", origin.span, True, (("method", method),))
        return [after_cast, *(f for f in at_use if not _encloses(f.span, origin.span) and not _encloses(origin.span, f.span))]
    if value.site is not None:
        call = ctx.snippet(value.site)
        if call.split("(")[0].strip().rsplit(".", 1)[-1] in ("tensor", "as_tensor") and "dtype" not in call:  # not a user's `_tensor(...)`
            return [
                FixSpec("add_kwarg", f"Create it as {dtype}: add `dtype={torch_dtype}` ({why})", value.site, True, (("name", "dtype"), ("value", torch_dtype))),
                FixSpec("append_call", f"Convert where it is created: `.{method}()` ({why})", value.site, True, (("method", method),)),
                *at_use,
            ]
        return [FixSpec("append_call", f"Convert where it is created: `.{method}()` ({why})", value.site, True, (("method", method),)), *at_use]
    if origin is not None and "follows the default dtype" in origin.why and " set at line " in origin.why and origin.span.line == origin.span.end_line:
        # `torch.zeros(shape)` made after the script changed the default dtype (later than the
        # weights it meets were made): it is made in the dtype it needs. A factory that follows
        # the usual float32 default is not what is odd (the float64 weight it meets is)
        made = factory_dtype_fix(ctx, origin.span, dtype, why)
        if made:
            return made
    if use_span is not None:
        return [FixSpec("append_call", f"Convert where it is used ({use_span.line_ref()}): `.{method}()` ({why})", use_span, True, (("method", method),))]
    return []


_CASTS = ("double", "float", "half", "bfloat16", "long", "int")


def _recast_fix(ctx: Context, origin: Origin, method: str, why: str) -> list[FixSpec]:
    """`x.double()` written where the value got its wrong dtype: the same cast to the right one."""
    if origin.span.file or origin.span.line != origin.span.end_line or not origin.why.startswith(tuple(f".{c}()" for c in _CASTS)):
        return []
    text = ctx.snippet(origin.span)
    old = next((c for c in _CASTS if text.endswith(f".{c}()")), None)
    if old is None or old == method:
        return []
    value = f"{text[: -len(old) - 2]}{method}()"
    return [FixSpec("replace_expression", f"Cast to the right dtype: `.{old}()` -> `.{method}()` ({why})", origin.span, True, (("old", text), ("value", value)))]


def factory_dtype_fix(ctx: Context, span: Span, dtype: str, why: str) -> list[FixSpec]:
    """`dtype=torch.<dtype>` added to the one-line factory call at `span` (`torch.zeros(shape)`)
    that does not pass one; none for any other call."""
    call = ctx.snippet(span)
    if span.line != span.end_line or not call.endswith(")") or "dtype" in call or call.split("(")[0].strip().rsplit(".", 1)[-1] not in _FACTORIES:
        return []
    return [FixSpec("add_kwarg", f"Create it as {dtype}: add `dtype=torch.{dtype}` ({why})", span, True, (("name", "dtype"), ("value", f"torch.{dtype}")))]


def single_tensor_at(ctx: Context, span: Span) -> bool:
    """The expression at `span` is one tensor that a method can be appended to: the whole value
    of `name = <it>` or of a `return`, a positional argument, or the receiver of a method call (`<it>.softmax(-1)`). Not the right side
    of `feat, logits = <it>` (a tuple), nor `<it>.logits` / `<it>[0]` (an output object)."""
    tree = ctx.tree
    if tree is None or span.file:
        return False

    def index() -> dict[tuple[int, int, int, int], ast.AST]:
        parents: dict[tuple[int, int, int, int], ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr) and child.end_lineno is not None and child.end_col_offset is not None:
                    parents[(child.lineno, child.col_offset, child.end_lineno, child.end_col_offset)] = node
        return parents

    def span_of(node: ast.expr) -> Span:
        return ctx.index.span(node)

    parents = ctx.memo("expression parents", index)
    for key, parent in parents.items():
        if key[0] != span.line:
            continue
        node = next((c for c in ast.iter_child_nodes(parent) if isinstance(c, ast.expr) and (c.lineno, c.col_offset, c.end_lineno, c.end_col_offset) == key), None)
        if node is None or span_of(node) != span:
            continue
        if isinstance(parent, ast.Assign):
            return parent.value is node and len(parent.targets) == 1 and isinstance(parent.targets[0], (ast.Name, ast.Attribute))
        if isinstance(parent, ast.Call) and node in parent.args:
            return True  # `F.normalize(<it>, dim=-1)`: a positional argument
        if isinstance(parent, ast.Return):
            return not isinstance(node, (ast.Tuple, ast.List, ast.Dict, ast.Set))  # `return F.normalize(...)`: the one value returned
        if isinstance(parent, ast.Attribute):
            grand = parents.get((parent.lineno, parent.col_offset, parent.end_lineno or 0, parent.end_col_offset or 0))
            return isinstance(grand, ast.Call) and grand.func is parent
        return False
    return False


def buffer_fix(ctx: Context, value: Tensor, why: str) -> list[FixSpec]:
    """`np.zeros(n)` (float64) filled with data that reaches torch as float64 where float32 is
    needed (a replay buffer's rewards beside its `dtype=np.float32` states): the buffer is
    created as float32, so every batch read from it is (the tensor made from it may be sliced
    and combined before it is used, and no single conversion downstream catches them all)."""
    origin = value.origin
    if origin is None or origin.span.file or origin.span.line != origin.span.end_line or not _BUFFER.match(origin.why):
        return []
    call = ctx.snippet(origin.span)
    if not call.endswith(")") or "dtype" in call or "**" in call:
        return []
    return [FixSpec("add_kwarg", f"Create the NumPy buffer as float32: add `dtype=np.float32` (the values stored in it are kept in float32; {why})",
                    origin.span, True, (("name", "dtype"), ("value", "numpy.float32")))]


_FACTORIES = frozenset({"zeros", "ones", "empty", "full", "rand", "randn", "arange", "linspace", "logspace", "eye", "tensor", "as_tensor"})


def _follow_fix(ctx: Context, value: Tensor, dtype_expr: str, why: str) -> list[FixSpec]:
    """Create the tensor with, or convert it to, the dtype `dtype_expr` evaluates to."""
    site = value.site
    if site is None:
        return []
    call = ctx.snippet(site)
    if call.split("(")[0].strip().rsplit(".", 1)[-1] in ("tensor", "as_tensor") and "dtype" not in call:
        return [FixSpec("add_kwarg", f"Create it with the model's dtype: add `dtype={dtype_expr}` ({why})", site, True, (("name", "dtype"), ("value", dtype_expr)))]
    return [FixSpec("append_call", f"Convert it to the model's dtype: `.to({dtype_expr})` ({why})", site, True, (("method", "to"), ("arg", dtype_expr)))]


def _encloses(outer: Span, inner: Span) -> bool:
    return (outer.line, outer.col) <= (inner.line, inner.col) and (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


_BUFFER = re.compile(r"`np\.(zeros|ones|empty|full)` makes float64")
_TYPED_BUFFER = re.compile(r"`np\.(zeros|ones|empty|full)`\(\.\.\., dtype=float\d+\)")  # a buffer given a float dtype
_FROM_PYTHON = re.compile(r"NumPy makes \w+ from Python (ints|floats)")
_WIDENED = re.compile(r"\.(astype\(float64\)|double\(\))|NumPy widens float")  # data cast to float64 on purpose (or by `float` meaning float64), or widened by a float64 operand
_TORCH_OP = re.compile(r"`(torch|F)\.\w+` (of integers )?gives ")  # a torch op on torch tensors: after they became tensors
_TABLE_READ = re.compile(r"`(np|numpy|pd|pandas)\.(loadtxt|genfromtxt|fromfile|frombuffer|read_csv|read_table)`")
_HOST_MADE = re.compile(r"`(np|numpy|rng|pd|pandas)\.|NumPy |pandas |\.astype\(")  # `.astype` is NumPy/pandas only


def dtype_root(value: Tensor, fallback: Span, prefer_cast: bool = False, float_data: bool = False, buffer: bool = False) -> Span:
    """Where the fix for a wrong dtype goes: the call that made the value a torch tensor, or
    the later cast that changed its dtype; the creation when neither is known; else `fallback`
    (the line that fails). With `prefer_cast` (targets), an earlier explicit cast is the fix:
    `.astype(np.int32)` on labels is the mistake, while `.astype(np.uint8)` on images is the
    data's own dtype and the conversion to torch is where `.float()` goes. With `buffer`
    (indices), a `np.zeros(shape)` buffer filled with ids later is where the dtype is decided."""
    site, origin = value.site, value.origin
    if site is not None and origin is not None:
        if (float_data or buffer) and _BUFFER.match(origin.why) and origin.span.line < site.line:
            return origin.span  # float data in a `np.zeros(shape)` buffer filled later: its `dtype=` is the decision
        if buffer and _TYPED_BUFFER.match(origin.why) and origin.span.line < site.line:
            return origin.span  # a replay memory's `np.zeros(n, dtype=np.float32)` of actions: that `dtype=` is the mistake
        if (float_data or prefer_cast) and _FROM_PYTHON.match(origin.why) and origin.span.line < site.line:
            return origin.span  # `np.array([reward])` of Python numbers: where the array's dtype is decided
        if float_data and _WIDENED.match(origin.why) and origin.span.line <= site.line:
            return origin.span  # `.astype(float)` (Python's float is float64): the cast is the mistake
        # a cast (`.astype(np.int32)`, `.float()`) or a `dtype=` chosen where the labels are made
        # (`np.array(labels, dtype=np.int32)`); not a whole table's `dtype=` (`np.loadtxt(...,
        # dtype=np.float32)`), right for its features: its label column is converted where it is taken
        # (`.astype(np.uint8)` of a binary mask is how masks are stored, as images are: the
        # conversion to torch is where `.float()` goes, set 85's free-space masks)
        explicit = prefer_cast and not origin.why.startswith(".astype(uint8)") and (
            origin.why.startswith(".") or ("dtype=" in origin.why and not _TABLE_READ.search(origin.why))
        )
        # a cast written below the conversion came after it; NumPy or pandas data written below
        # (in the main block, the conversion in a function above) came before it
        later = (origin.span.line > site.line and not _HOST_MADE.match(origin.why)) or bool(_TORCH_OP.match(origin.why))
        return origin.span if explicit or later else site
    if site is not None:
        return site
    if origin is not None:
        return origin.span
    return fallback


def device_root(value: Tensor, fallback: Span) -> Span:
    """Where the fix for a wrong device goes: a torch factory that made the tensor on the
    default device because it was given no `device=` (a hidden state or mask built in
    `forward`), or the legacy `torch.Tensor(...)` that ignores a default device. Data (a batch,
    `from_numpy`, a Dataset item) is moved where it is used, so that stays at `fallback`."""
    origin = value.dev_origin
    made_here = origin is not None and any(w in origin.why for w in ("follows the default device", "ignores the default device", "as a plain attribute"))
    moved_to_cpu = origin is not None and value.device == "cpu" and origin.why in (".to(cpu)", ".cpu()")  # moved to the CPU on purpose, then used on the GPU
    made_here = made_here or moved_to_cpu
    if origin is None or origin.why.startswith(DATA_WHYS) or not made_here:
        return fallback
    return origin.span


# What the first layer of each kind raises on CPU when its input's dtype is not its
# parameters' (tests/engine/test_rule_numbers.py makes each error with real layers and
# compares): Linear, Conv1d/2d/3d, RNN/LSTM/GRU, and the norms that check (BatchNorm,
# LayerNorm, GroupNorm, InstanceNorm: RMSNorm computes in the input's dtype instead).
_LAYER_ERRORS = {
    "linear": "mat1 and mat2 must have the same dtype, but got {got} and {want}",
    "conv": "Input type ({got_l}) and bias type ({want_l}) should be the same",
    "rnn": "RNN input dtype (torch.{got_t}) does not match weight dtype (torch.{want_t})",
    "norm": "mixed dtype (CPU): all inputs must share same datatype.",
}
TORCH_NAMES = {
    "float64": ("Double", "double"), "float32": ("Float", "float"), "float16": ("Half", "c10::Half"), "bfloat16": ("BFloat16", "c10::BFloat16"),
    "uint8": ("Byte", "unsigned char"), "int64": ("Long", "long int"), "int32": ("Int", "int"), "int16": ("Short", "short int"),
    "int8": ("Char", "signed char"), "bool": ("Bool", "bool"),
}


def layer_dtype_error(layer: str, got: str, want: str) -> str | None:
    """The error of a `layer` (a first-layer kind) given a `got` input with `want` parameters;
    None where the norm does not raise (a float16 or bfloat16 input: the layer after it does)
    or what it raises depends on which norm it is (an integer input: BatchNorm says "not
    implemented for 'Long'", LayerNorm "mixed dtype")."""
    if layer == "norm" and got not in ("float64", "float32"):
        return None  # (a float16/bfloat16 input passes a float32 norm, in its own dtype: the next layer refuses it)
    template = _LAYER_ERRORS.get(layer, _LAYER_ERRORS["linear"])
    g, w = TORCH_NAMES.get(got, (got, got)), TORCH_NAMES.get(want, (want, want))
    return template.format(got=g[0], want=w[0], got_l=g[1], want_l=w[1], got_t=got, want_t=want)


# What an RNN raises on CPU when its initial hidden state's dtype is not its weights' (the
# input's dtype matching them): LSTM's oneDNN path on float32 weights has its own words, every
# other case is the matmul's (tests/engine/test_rule_numbers.py runs each with real layers).
_LSTM_FLOAT32_HIDDEN = {
    "float64": "get_mkldnn_dtype: unsupported data type",
    "float16": "could not create a primitive descriptor for the LSTM forward propagation primitive",
    "bfloat16": "could not create a primitive descriptor for the LSTM forward propagation primitive",
}
RNN_CLASSES = frozenset({"torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNN"})


def hidden_dtype_error(cls: str, got: str, want: str) -> str | None:
    """The error of `nn.LSTM`/`nn.GRU`/`nn.RNN` (`cls`) with `want` weights and input, given an
    initial hidden state of dtype `got`; None where it is not known to raise."""
    floats = ("float64", "float32", "float16", "bfloat16")
    if cls not in RNN_CLASSES or got == want or got not in floats or want not in ("float64", "float32"):
        return None
    if cls == "torch.nn.LSTM" and want == "float32":
        return _LSTM_FLOAT32_HIDDEN[got]
    return _LAYER_ERRORS["linear"].format(got=TORCH_NAMES[got][0], want=TORCH_NAMES[want][0])


def fails_here(root: Span, failing: Span, words: str) -> list[Related]:
    """The related information at the line that will fail, when the finding is elsewhere."""
    return [] if root == failing else [Related.failing(failing, words)]



def function_at(tree: ast.Module, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose body holds `line`."""
    found: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.body[0].lineno <= line <= (node.end_lineno or node.lineno):
            if found is None or node.lineno > found.lineno:
                found = node
    return found


def same_binding(tree: ast.Module, name: str, early: int, late: int, attributes: bool = False) -> bool:
    """Whether `name` means the same thing at line `early` and at line `late` of one function:
    both lines in it, `name` one of its parameters or assigned above `early`, and not assigned
    from `early` to `late` (nor, with `attributes`, any attribute)."""
    func = function_at(tree, late)
    if func is None or function_at(tree, early) is not func or early > late:
        return False
    args = func.args
    bound = name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None}
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            if early <= node.lineno <= late:
                return False  # rebound in between
            bound = bound or node.lineno < early
        if attributes and isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and early <= node.lineno <= late:
            return False  # an attribute (maybe the one read) assigned in between
    return bound


def expression_at(ctx: Context, span: Span) -> tuple[str, ast.expr] | None:
    """The source text of the one-line expression at `span` and its parse: what a
    `replace_expression` fix names as `old` and rewrites. None across lines or when it does not parse."""
    lines = ctx.text.splitlines()
    if span.line != span.end_line or span.line > len(lines):
        return None
    text = lines[span.line - 1][span.col:span.end_col]
    try:
        return text, ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
