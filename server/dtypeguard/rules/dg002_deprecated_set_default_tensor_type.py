"""DG002: `torch.set_default_tensor_type` is deprecated since PyTorch 2.1 (H01)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypeguard.engine.events import SetDefault
from dtypeguard.engine.values import Ref, Tensor, Value
from dtypeguard.findings import Finding, FixSpec, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def check(ctx: Context) -> Iterator[Finding]:
    for sd in ctx.events.set_defaults:
        if sd.what != "tensor_type":
            continue
        cuda = sd.device.value == "cuda"
        dtype = sd.dtype.value
        message = (
            "`torch.set_default_tensor_type` is deprecated since PyTorch 2.1: use "
            "`torch.set_default_dtype` (and move tensors with `.to(device)`)"
        )
        # `set_default_tensor_type` also sets the default device: after a CUDA default, a CPU
        # type moves it back, which `set_default_dtype` alone would not do
        back_to_cpu = not cuda and sd.prev_device.value != "cpu"
        if cuda:
            message += "; a global CUDA default also breaks `DataLoader(shuffle=True)`"
        elif dtype == "float32" and sd.prev_dtype.value == "float32" and sd.prev_device.value == "cpu":
            message += "; on CPU `'torch.FloatTensor'` changes nothing and does not convert NumPy float64 data"
        elif sd.prev_device.value == "cuda":
            message += "; here it also moves the default device back to the CPU (`torch.set_default_device('cpu')`)"
        fixes: list[FixSpec] = []
        moves = _held_modules(ctx, sd) if cuda and dtype is not None and not back_to_cpu else None
        if cuda and dtype is not None and moves is None and _plain(sd.arg) and not _legacy_constructors(ctx) and _default_device_tensors(ctx, elsewhere=True):
            # tensors made on the CUDA default in another file (aster.pytorch's `torch.zeros(...)`
            # in lib/'s decoder): no edit here moves them, and an explicit device would leave
            # them on the CPU, so the fix keeps the defaults, in today's calls. (Made here, the
            # setup block below and the next round's `.to(device)` fixes move them; legacy
            # `torch.Tensor(...)` constructors ignore `set_default_device`: those files too.)
            fixes.append(FixSpec(
                "replace_tensor_type_call",
                f"Replace with `torch.set_default_dtype(torch.{dtype})` and `torch.set_default_device(\"cuda\" if "
                "torch.cuda.is_available() else \"cpu\")` (the same defaults where there is a GPU; without one, the CPU, where the "
                "CUDA type raises)",
                sd.span,
                True,
            ))
        elif dtype is not None and not back_to_cpu:  # an unknown type is not guessed
            params: tuple[tuple[str, str], ...] = (("dtype", dtype), ("cuda", "1" if cuda else ""))
            title = f"Replace with `torch.set_default_dtype(torch.{dtype})`"
            if moves is not None:
                # the explicit device the CUDA default stood for: a `device` name the models it
                # placed move to (and the dtype line only where the default dtype changes)
                same = sd.prev_dtype.value == dtype
                params += (("moves", ";".join(f"{m.line},{m.col},{m.end_line},{m.end_col}" for m in moves)), ("dtype_noop", "1" if same else ""))
                lines = ", ".join(str(m.line) for m in moves)
                title = ("Replace with" if same else f"{title} and") + " an explicit `device`" + (f", the model{'s' if len(moves) > 1 else ''} at line{'s' if len(moves) > 1 else ''} {lines} moved to it" if moves else "")
            elif cuda:
                title += " and an explicit `device`"
            # without the models it placed known and held here, everything the CUDA default made
            # stays together on the CPU, unless the code also moves modules to a device itself
            # (NeuS's `.to(self.device)` with `torch.device('cuda')`): those would leave the
            # tensors torch made on the default (in its renderer) behind; not a drop-in then
            placed = not cuda or moves is not None or not any(
                c.after.device_expr and c.after.device != "cpu" for c in ctx.events.casts if c.time > sd.time
            )
            # a legacy `torch.Tensor(...)` follows only the CUDA tensor type: without it, its tensors
            # are made on the CPU (and `torch.Tensor(..., device=cuda)` raises; yolact's priors)
            placed = placed and not (cuda and _legacy_constructors(ctx))
            # set inside a function that then calls a function it was given, with no model made here
            # after it: what relies on the CUDA default runs elsewhere (ALAE's launcher sets it in `_run`,
            # then calls each entry script's `train`, whose models and forward-time tensors are in other
            # files), so dropping it is not known to keep them together
            top = next((s for s in ctx.tree.body if s.lineno <= sd.span.line <= (s.end_lineno or s.lineno)), None) if ctx.tree is not None and not sd.span.file else None
            inside = isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) and _calls_a_parameter(top)
            placed = placed and not (cuda and moves == [] and inside)
            fixes.append(FixSpec("replace_default_tensor_type", title, sd.span, placed, params))
        elif _plain(sd.arg):
            # a type chosen at run time: the drop-in pair of modern calls reads it (exact, but for
            # the legacy `torch.Tensor(...)` constructor, which follows only a CUDA tensor type)
            fixes.append(FixSpec(
                "replace_tensor_type_call",
                f"Replace with `torch.set_default_dtype` and `torch.set_default_device` reading `{sd.arg}`",
                sd.span,
                not _legacy_constructors(ctx),
            ))
        yield RULE.finding(message, sd.span, fixes=fixes)


def _calls_a_parameter(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """`fn(**args)` where `fn` is the function's own parameter: what runs next is the caller's."""
    params = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in params for n in ast.walk(func))


def _held_modules(ctx: Context, sd: SetDefault) -> list[Span] | None:
    """Where the script holds each model this CUDA default placed (`model = Net(...)`: the
    call's span, which the fix moves with `.to(device)`); None when one of them is not held by
    such a plain assignment here (`train(Net())`), so moving them all is out of reach.

    The models are the modules created on the default device after the call and not part of
    another one (a `Net`'s layers move with it)."""
    created = {oid: module for time, _, oid, module in ctx.events.creations if time >= sd.time and module.device in ("cuda", "auto")}
    parts = {oid for module in created.values() for value in module.attrs.values() for oid in _refs(value)}
    roots = set(created) - parts
    if _default_device_tensors(ctx):
        return None  # tensors made on the default device would stay behind on the CPU
    if not roots or ctx.tree is None:
        return [] if not roots else None
    calls = ctx.memo("plain_assignment_calls", lambda: _assignment_calls(ctx.tree))
    held: dict[int, Span] = {}
    for fact in ctx.facts.values:
        oid = getattr(fact.value, "oid", None)
        if fact.store and oid in roots and not fact.span.file and (fact.span.line, fact.span.col) in calls:
            held.setdefault(oid, calls[(fact.span.line, fact.span.col)])
    if set(held) != roots:
        return None
    return sorted(set(held.values()))


def _default_device_tensors(ctx: Context, elsewhere: bool = False) -> bool:
    """Some tensor the script names or computes with was made by a torch factory on a non-CPU
    default device (a model's outputs are where the model is: they move with it); with
    `elsewhere`, made in another file of the project."""
    values: list[Value | None] = [fact.value for fact in ctx.facts.values]
    for forward in ctx.events.forwards:
        values += [*forward.inputs, *forward.kw_inputs]
    for op in ctx.events.ops:
        values += op.inputs
    for loss in ctx.events.losses:
        values += [loss.output, loss.target]
    return any(
        isinstance(v, Tensor) and not v.moves and v.device in ("cuda", "auto") and v.dev_origin is not None and "follows the default device" in v.dev_origin.why
        and (not elsewhere or bool(v.dev_origin.span.file))
        for v in values
    )


def _assignment_calls(tree: ast.Module | None) -> dict[tuple[int, int], Span]:
    """`name = f(...)`: the target's position -> the call's span."""
    out: dict[tuple[int, int], Span] = {}
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            v = node.value
            out[(node.targets[0].lineno, node.targets[0].col_offset)] = Span(v.lineno, v.col_offset, v.end_lineno or v.lineno, v.end_col_offset or 0)
    return out


def _refs(value: object) -> Iterator[int]:
    """The heap objects a module attribute holds (a layer, the items of a Sequential)."""
    if isinstance(value, Ref):
        yield value.oid
    for item in getattr(value, "items", ()) or ():
        yield from _refs(item)


def _plain(arg: str) -> bool:
    """A name, an attribute, a string, a lookup of those (`TENSOR_TYPES[device]`), or a choice
    between them (`"torch.cuda.FloatTensor" if use_cuda else "torch.FloatTensor"`): no call,
    so the fix may read it twice."""
    try:
        tree = ast.parse(arg.strip(), mode="eval")
    except SyntaxError:
        return False
    pure = (ast.Expression, ast.Name, ast.Attribute, ast.Constant, ast.Subscript, ast.Load, ast.IfExp, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.cmpop, ast.boolop, ast.Not)
    return bool(arg.strip()) and all(isinstance(n, pure) for n in ast.walk(tree))


def _legacy_constructors(ctx: Context) -> bool:
    """`torch.Tensor(...)`/`torch.FloatTensor(...)` calls, here or run in a file this one imports
    (NeuS's renderer): they ignore `set_default_device`, so the modern pair is not a drop-in."""
    return ctx.tree is None or ctx.events.legacy_constructor or ctx.any_node("legacy_constructors", _legacy_constructor, needle="Tensor")


def _legacy_constructor(n: ast.AST) -> bool:
    return isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name)) and (n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id).endswith("Tensor")


# the part of the explanation that the hover over `torch.set_default_tensor_type` repeats
_FACTS = {
    "deprecated": "`torch.set_default_tensor_type` has been deprecated since PyTorch 2.1 and warns; "
    "use `torch.set_default_dtype` and `torch.set_default_device`. It changes only the dtype/device "
    "of *new* tensors that torch itself creates. It does not convert NumPy arrays "
    "(`torch.from_numpy`, `torch.tensor(ndarray)` keep float64), so it does not fix "
    "\"mat1 and mat2 must have the same dtype\" errors.",
}

RULE = Rule(
    code="DG002",
    name="deprecated-set-default-tensor-type",
    severity=Severity.WARNING,
    summary="set_default_tensor_type is deprecated since PyTorch 2.1",
    explanation=(
        f"{_FACTS['deprecated']} `'torch.FloatTensor'` on CPU is a no-op "
        "(float32 is already the default); `'torch.cuda.FloatTensor'` makes CUDA the global default, "
        "which breaks `DataLoader(shuffle=True)` and raises TypeError on a CPU-only install."
    ),
    facts=_FACTS,
    hazards=("H01", "H02", "H03"),
    reported_at='the `set_default_tensor_type` call',
    errors=(
        ErrorPattern(
            r"type torch\.cuda\.\w+ not available",
            "type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled.",
            "hazards.md H01",
        ),
    ),
    hint=(
        "set_default_tensor_type is deprecated since PyTorch 2.1 and a CUDA tensor type fails "
        "on a CPU-only install; use torch.set_default_dtype / torch.set_default_device, or "
        "better, move tensors with .to(device)."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\ntorch.set_default_tensor_type('torch.FloatTensor')  # <-\n",
            "import torch as T\nif T.cuda.is_available():\n    T.set_default_tensor_type('torch.cuda.FloatTensor')  # <-\n",
            "from torch import set_default_tensor_type, DoubleTensor\nset_default_tensor_type(DoubleTensor)  # <-\n",
        ],
        good=[
            "import torch\ntorch.set_default_dtype(torch.float32)\n",
            "def set_default_tensor_type(x):\n    pass\nset_default_tensor_type('torch.FloatTensor')\n",
        ],
    ),
)
