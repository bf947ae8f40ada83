"""DG009: the model and its input live on different devices (H24)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypeguard.engine import source
from dtypeguard.engine.call_effects import (
    CUDA_WITHOUT_GPU,
    META_MOVE,
    META_VALUE,
    SHAPE_QUERIES,
    helper_of,
)
from dtypeguard.engine.events import Forward, TensorOp
from dtypeguard.engine.values import (
    DATA_WHYS,
    FORGOTTEN,
    ModuleObj,
    Ref,
    Tensor,
    TupleV,
    Value,
    hard_coded_cuda,
)
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import (
    Context,
    ErrorPattern,
    Rule,
    device_root,
    expression_at,
    fails_here,
    same_binding,
    tensor,
)


def _mismatch(model: str | None, data: str | None) -> bool:
    if model is None or data is None or model == data:
        return False
    return {model, data} in ({"cuda", "cpu"}, {"auto", "cpu"}, {"meta", "cpu"})


def _tensors(inputs: tuple[Value | None, ...]) -> list[tuple[int, Tensor]]:
    """Each tensor argument with its position; a tuple argument (an RNN's `(h0, c0)`) too."""
    out: list[tuple[int, Tensor]] = []
    for i, value in enumerate(inputs):
        items = value.items if isinstance(value, TupleV) else (value,)
        out += [(i, t) for t in (tensor(item) for item in items) if t is not None]
    return out


_META_ERROR = "Cannot copy out of meta tensor; no data!"
_NO_CUDA_ERROR = "Torch not compiled with CUDA enabled"


def _cuda_without_gpu(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`.cuda()` in code that runs only where there is no GPU (the `else` of `if
    torch.cuda.is_available():`, the CPU side of `x if use_cuda else y`): it raises there. The fix
    is to leave it on the CPU (the branch's own device): drop the `.cuda()`."""
    for op in ctx.events.ops:
        if op.name != CUDA_WITHOUT_GPU or op.span in seen:
            continue
        seen.add(op.span)
        found = expression_at(ctx, op.span)
        text = found[0] if found is not None else ""
        fixes = [FixSpec("replace_expression", "Keep it on the CPU here: drop `.cuda()`", op.span, True,
                         (("old", text), ("value", text.removesuffix(".cuda()"))))] if text.endswith(".cuda()") and not op.span.file else []
        yield RULE.finding(
            f"`.cuda()` here runs only on a machine without a GPU (the other side of a `torch.cuda.is_available()` test), where it "
            f"raises (\"{_NO_CUDA_ERROR}\"): leave the tensor on the CPU in this branch",
            op.span,
            fixes=fixes,
        )


def _meta_moves(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """A module built on the meta device (`with torch.device("meta"):`), moved with `.to()`
    while a tensor of it is still there (never loaded, or a non-persistent buffer no checkpoint
    holds, left by `load_state_dict(..., assign=True)`): meta tensors have no data to copy."""
    for op in ctx.events.ops:
        if op.name != META_MOVE or not op.inputs or not isinstance(op.inputs[0], Tensor) or op.inputs[0].dev_origin is None:
            continue
        origin = op.inputs[0].dev_origin
        root = origin.span if not origin.span.file else op.span
        if root in seen:
            continue
        seen.add(root)
        related = fails_here(root, op.span, _META_ERROR)
        if root != origin.span:
            related.append(Related(origin.span, f"the tensor is on the meta device: {origin.why}"))
        yield RULE.finding(
            f"the module built here keeps a tensor on the meta device (no data), and `.to()` at line {op.span.line} "
            f"fails with \"{_META_ERROR}\": build it on a real device, or move it with `to_empty()` and fill in "
            "what no checkpoint holds (non-persistent buffers)",
            root,
            related=related,
        )


def _meta_values(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`.item()` (`.tolist()`, `.numpy()`) of a tensor made on the meta device: it has no values
    ("Tensor.item() cannot be called on meta tensors"). The call is where the fix goes (compute
    the number without torch, as dinov2's PR does with NumPy); related: the meta block."""
    for op in ctx.events.ops:
        if not op.name.startswith(META_VALUE) or not op.inputs or not isinstance(op.inputs[0], Tensor):
            continue
        method = op.name[len(META_VALUE):]
        error = f"Tensor.{method}() cannot be called on meta tensors" if method == "item" else "meta tensors have no data"
        if op.span in seen:
            continue
        seen.add(op.span)
        origin = op.inputs[0].dev_origin
        related = [Related(origin.span, f"the tensor is on the meta device: {origin.why}")] if origin is not None else []
        yield RULE.finding(
            f"this tensor is on the meta device (no data), and `.{method}()` fails with \"{error}\": compute the "
            "value outside the meta block (NumPy, Python), or make this tensor on a real device",
            op.span,
            related=related,
        )


def check(ctx: Context) -> Iterator[Finding]:
    seen: set[Span] = set()
    for fw in ctx.events.forwards:
        module = fw.module
        if not fw.inputs or (module.dtype is None and not module.first_layer):
            continue
        if module.cls.startswith("user:") and not (_holds_weights(module) and _forward_reads_weights(ctx, module)):
            # no parameters, buffers or layers, or a forward that reads none of them (learning3d's
            # SVDHead, scan 28): what its forward does with its input is checked inside it
            continue
        for position, x in _tensors(fw.inputs + fw.kw_inputs):
            if module.device == "auto" and x.device == "cuda" and x.dev_origin is not None and x.dev_origin.why == ".cuda()" and position not in fw.maybe_causal:
                found = _hard_coded_cuda(ctx, fw, x, seen)  # TRADES' `torch.randn(...).cuda()` (scan 31)
                if found is not None:
                    yield found
                continue
            if not _mismatch(module.device, x.device) or position in fw.maybe_causal:
                continue
            if position > 0 and module.cls.startswith("user:") and x.dev_origin is not None and x.dev_origin.why in (".cpu()", ".to(cpu)"):
                # moved to the CPU on purpose for the script's own forward (`model(text, lengths.cpu())`
                # for `pack_padded_sequence`): what that forward does with it is checked inside it
                continue
            if position > 0 and module.cls.startswith("user:") and _lengths_only(ctx, module.cls[5:], position):
                continue  # the script's own forward hands it only to `pack_padded_sequence` as lengths, which must be on the CPU
            if position > 0 and x.device == "cpu" and position in fw.index_only:
                continue  # used only to index (`h[obs_idx]`): a CPU index tensor indexes a tensor on any device (gru_ode_bayes, scan 32)
            if module.cls.startswith("user:") and _moved_in_forward(ctx, module.cls[5:], position):
                continue  # the script's own forward moves it first (`self.lstm(x.to(self.device))`)
            if position in fw.handed_off:
                continue  # first given to a method of an object the forward holds, which may move it: checked inside
            if fw.nested and position == 0 and x.dev_origin is None:
                continue  # the outer call's input, reported there
            model_side = x.device in ("cuda", "auto", "meta") and module.device == "cpu"
            if model_side:
                moved = module.device_origin is not None and "default device" not in module.device_origin.why
                # never moved: where it is made, or where the caller holds what a factory function made
                root = module.device_origin.span if moved and module.device_origin else module.made_at or module.origin.span
            else:
                bound = fw.bound_at[position] if position < len(fw.bound_at) else None
                root = device_root(x, bound or fw.span)
            if root in seen:
                continue
            seen.add(root)
            yield _forward_finding(ctx, fw, module, x, position, root)
    yield from _loss_targets(ctx, seen)
    yield from _loss_weights(ctx)
    yield from _ops(ctx, seen)
    yield from _cuda_without_gpu(ctx, seen)
    yield from _meta_moves(ctx, seen)
    yield from _meta_values(ctx, seen)


def _hard_coded_cuda(ctx: Context, fw: Forward, x: Tensor, seen: set[Span]) -> Finding | None:
    """An input moved with a hard-coded `.cuda()` to a model whose device the script chooses at
    run time (`torch.device("cuda" if torch.cuda.is_available() else "cpu")`): on a CPU-only
    machine `.cuda()` raises, so the script meant to run on both cannot. The fix goes on the
    `.cuda()`: `.to(<the script's device>)`."""
    origin = x.dev_origin
    if origin is None or origin.span in seen:
        return None
    seen.add(origin.span)
    fixes = _cuda_to_device_fix(ctx, origin.span) if not origin.span.file else []
    error = "Torch not compiled with CUDA enabled"
    # (the `.cuda()` in a helper module the script imports, cycleGAN's `utils.cuda`, scan 36: shown
    # here at the forward it feeds, or at the call here that runs both, rooted there)
    # (there the model's device is named only where it is in an imported file too: a place in this
    # file other than the forward would be where the finding is shown)
    device = [Related(fw.module.device_origin.span, f"the model's device: {fw.module.device_origin.why}")] if fw.module.device_origin else []
    if origin.span.file:
        device = [Related(fw.span, "the forward pass the moved input reaches"), *(r for r in device if r.span.file)]
    return RULE.finding(
        f"this input is moved with a hard-coded `.cuda()`, but the model's device is chosen at run time (CUDA when available): "
        f"on a CPU-only machine `.cuda()` raises (\"{error}\") before the forward pass at {fw.span.line_ref()}",
        origin.span,
        related=device,
        fixes=fixes,
        severity=Severity.WARNING,
    )


def _cuda_to_device_fix(ctx: Context, span: Span) -> list[FixSpec]:
    """`x.cuda()` -> `x.to(<the script's device>)`, where the script names its device once."""
    name = _available_device_name(ctx)
    found = expression_at(ctx, span)
    text = found[0] if found is not None else ""
    if not (name and text.endswith(".cuda()")):
        return []
    return [FixSpec("replace_expression", f"Use the script's device: `.cuda()` -> `.to({name})`", span, True,
                    (("old", text), ("value", f"{text.removesuffix('.cuda()')}.to({name})")))]


def _hard_cuda_op(ctx: Context, op: TensorOp, hard: Tensor, seen: set[Span]) -> Finding | None:
    """A tensor the code puts on CUDA itself (`.cuda()`, `torch.cuda.FloatTensor(...)`) combined
    with one on the device the script chooses by availability: on a CPU-only machine the
    hard-coded CUDA raises first. Reported at the hard-coded CUDA; the fix for `.cuda()` is
    `.to(<the script's device>)`."""
    origin = hard.dev_origin
    if origin is None or origin.span.file or origin.span in seen:
        return None
    seen.add(origin.span)
    fixes = _cuda_to_device_fix(ctx, origin.span)
    error = "Torch not compiled with CUDA enabled"
    how = "`.cuda()`" if origin.why == ".cuda()" else f"`{origin.why.split(' ')[0]}`"
    return RULE.finding(
        f"this tensor is put on CUDA by a hard-coded {how}, but `{op.name}` at {op.span.line_ref()} combines it with one on "
        f"the device the script chooses at run time (CUDA when available): on a CPU-only machine it raises (\"{error}\")",
        origin.span,
        related=fails_here(origin.span, origin.span, error),
        fixes=fixes,
        severity=Severity.WARNING,
    )


def _holds_weights(module: ModuleObj) -> bool:
    """Does a module of the script's own hold anything that lives on a device: a layer, a
    parameter or a buffer (or attributes this analysis forgot)? NeRF's `Embedding` holds only
    a plain tensor of frequencies, iterated into 0-dim tensors that meet any device."""
    return FORGOTTEN in module.attrs or any(_weight_held(v) for v in module.attrs.values())


def _weight_held(value: Value | None) -> bool:
    """An attribute value that lives on a device with its module: a layer, a parameter or buffer, a list of layers."""
    return (
        isinstance(value, Ref) or (isinstance(value, Tensor) and (value.param or value.moves))
        or (isinstance(value, TupleV) and any(isinstance(i, Ref) for i in value.items))
    )


def _forward_reads_weights(ctx: Context, module: ModuleObj) -> bool:
    """Does the script's class's `forward` (with the methods of the class it calls on `self`) read
    an attribute that holds a layer, parameter or buffer? Anything it cannot tell (a forward not
    in this file, `self` handed elsewhere, an attribute not known, `super()`) counts as reading."""
    classes = ctx.memo("class-defs", lambda: {n.name: n for n in ast.walk(ctx.tree) if isinstance(n, ast.ClassDef)} if ctx.tree is not None else {})
    node = classes.get(module.cls[5:])
    if node is None or FORGOTTEN in module.attrs:
        return True
    methods = {f.name: f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if "forward" not in methods:
        return True
    weighty = {name for name, v in module.attrs.items() if _weight_held(v)}
    todo, seen = ["forward"], {"forward"}
    while todo:
        func = methods[todo.pop()]
        params = func.args.posonlyargs + func.args.args
        if not params:
            return True
        me = params[0].arg
        attrs = {id(n.value) for n in ast.walk(func) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == me}
        for n in ast.walk(func):
            if isinstance(n, ast.Name) and n.id == me and id(n) not in attrs:
                return True  # `self` itself handed on
            if isinstance(n, ast.Name) and n.id == "super":
                return True
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == me:
                if n.attr in methods:
                    if n.attr not in seen:
                        seen.add(n.attr)
                        todo.append(n.attr)
                elif n.attr in weighty or (n.attr not in module.attrs and n.attr != "training"):
                    return True
    return False


_PACKERS = ("pack_padded_sequence",)


def _lengths_only(ctx: Context, cls: str, position: int) -> bool:
    """Does the script's class `cls` use its `forward`'s parameter number `position` (after
    `self`) only as the lengths of `pack_padded_sequence` (which must be a CPU tensor or a
    list, whatever the model's device)?"""
    forwards = ctx.memo("forward-defs", lambda: _forward_defs(ctx))
    node = forwards.get(cls)
    if node is None:
        return False
    params = [a.arg for a in node.args.posonlyargs + node.args.args][1:]
    if position >= len(params):
        return False
    name = params[position]
    uses = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]
    as_lengths = {
        id(arg) for call in ast.walk(node) if isinstance(call, ast.Call) and _callee(call) in _PACKERS
        for arg in [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "lengths")] if isinstance(arg, ast.Name)
    }
    return bool(uses) and all(id(u) in as_lengths for u in uses)


def _moved_in_forward(ctx: Context, cls: str, position: int) -> bool:
    """Does the script's class `cls` move its `forward`'s parameter number `position` (after
    `self`) to a device before anything else uses it: every use is `x.to(...)` / `x.cuda()`, or
    the first one is `x = x.to(self.device)` (Wattile's LSTM: `self.lstm(x.to(self.device), ...)`)?
    Then an input on the wrong device is the forward's own business, checked inside it."""
    node = ctx.memo("forward-defs", lambda: _forward_defs(ctx)).get(cls)
    if node is None:
        return False
    params = [a.arg for a in node.args.posonlyargs + node.args.args][1:]
    if position >= len(params):
        return False
    name = params[position]
    # a shape or dtype query (`x.size(0)`, `len(x)`) reads no data: it is not a use on a device
    queries = {id(n.value) for n in ast.walk(node) if isinstance(n, ast.Attribute) and n.attr in SHAPE_QUERIES}
    queries |= {id(n.args[0]) for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "len" and n.args}
    uses = sorted(
        (n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and id(n) not in queries),
        key=lambda n: (n.lineno, n.col_offset),
    )
    moves = {id(call.func.value) for call in ast.walk(node) if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("to", "cuda")}
    if uses:
        head = next((stmt for stmt in node.body if stmt.lineno <= uses[0].lineno <= (stmt.end_lineno or stmt.lineno)), None)
        if isinstance(head, ast.Assign) and len(head.targets) == 1 and isinstance(head.targets[0], ast.Name) and head.targets[0].id == name and helper_of(head.value, name):
            return True  # `rois = at.totensor(rois).float()` first: a project helper converts (and may move) it (scan 38)
    if not uses or id(uses[0]) not in moves:
        return False
    if all(id(u) in moves for u in uses):
        return True
    first = next((stmt for stmt in node.body if stmt.lineno <= uses[0].lineno <= (stmt.end_lineno or stmt.lineno)), None)
    if isinstance(first, ast.If) and any(isinstance(n, ast.Attribute) and n.attr in ("is_cuda", "device") for n in ast.walk(first.test)):
        # `if ys.is_cuda: xlen = xlen.cuda()` (E2E-ASR, scan 34): moved when the data is on the GPU
        first = next((stmt for stmt in first.body if stmt.lineno <= uses[0].lineno <= (stmt.end_lineno or stmt.lineno)), None)
    return isinstance(first, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in first.targets)




def _forward_defs(ctx: Context) -> dict[str, ast.FunctionDef]:
    out: dict[str, ast.FunctionDef] = {}
    for node in ast.walk(ctx.tree) if ctx.tree is not None else ():
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "forward":
                    out.setdefault(node.name, item)
    return out


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _forward_finding(ctx: Context, fw: Forward, module: ModuleObj, x: Tensor, position: int, root: Span) -> Finding:
    maybe = "auto" in (module.device, x.device)
    where_model = "on the GPU when CUDA is available" if module.device == "auto" else f"on {module.device}"
    where_data = "on the GPU when CUDA is available" if x.device == "auto" else f"on {x.device}"
    what = "this input" if position == 0 else "this tensor argument"
    message = (
        f"the model is {where_model} but {what} stays {where_data}: the forward pass at {fw.span.line_ref()} fails with "
        "\"Expected all tensors to be on the same device\""
    )
    plain, fixes = _plain_attribute(x, root)
    message += plain
    related = fails_here(root, fw.span, "Expected all tensors to be on the same device")
    if module.device_origin is not None:
        related.append(Related(module.device_origin.span, f"the model's device: {module.device_origin.why}"))
    if x.dev_origin is not None:
        related.append(Related(x.dev_origin.span, f"the input's device: {x.dev_origin.why}"))
    name = _available_device_name(ctx)
    hard_coded = x.device == "cuda" and x.dev_origin is not None and x.dev_origin.why == ".cuda()" and module.device == "cpu"
    if hard_coded and name and root == module.origin.span:
        # `.cuda()` written into a script whose `device` falls back to the CPU: the same on a GPU
        # (the model goes where the batches go), and it runs without one
        fixes.append(FixSpec(
            "cuda_to_device", f"Use `{name}` for the hard-coded CUDA: `.cuda()` -> `.to({name})`, and the model `.to({name})`",
            root, True, (("device", name),),
        ))
    device_expr = _safe_device_expr(module.device, module.device_expr) if module.device in ("cuda", "auto") else '"cpu"'
    use = fw.arg_spans[position] if len(fw.arg_spans) > position and position == 0 else None
    if device_expr and use is not None:
        # moving GPU data to a model left on the CPU runs, but on the CPU, and where the call is in
        # a class's method it moves every caller's data (learning3d's PRNet, scan 28: its training
        # script has the model on the GPU): the model's move is the fix, this one is not safe
        to_cpu = device_expr == '"cpu"' and x.device in ("cuda", "auto", "meta")
        fixes.append(FixSpec("to_device", f"Move the input to the model's device: `.to({device_expr})`", use, not to_cpu, (("device", device_expr),)))
    return RULE.finding(message, root, related=related, fixes=fixes, severity=Severity.WARNING if maybe else Severity.ERROR)


def _loss_targets(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """The model's output is on its device; a target left on the CPU fails in the loss. A target
    moved with a hard-coded `.cuda()` next to predictions on the device the script chooses by
    availability raises on a CPU-only machine (segan's GAN labels, scan 43)."""
    for loss in ctx.events.losses:
        out, target = tensor(loss.output), tensor(loss.target)
        if out is not None and target is not None and out.device == "auto" and target.device == "cuda" and target.dev_origin is not None and target.dev_origin.why == ".cuda()":
            origin = target.dev_origin
            if origin.span.file or origin.span in seen:
                continue
            seen.add(origin.span)
            error = "Torch not compiled with CUDA enabled"
            yield RULE.finding(
                f"this target is moved with a hard-coded `.cuda()`, but the predictions are on the device the script chooses at run "
                f"time (CUDA when available): on a CPU-only machine `.cuda()` raises (\"{error}\") before {loss.name} at {loss.span.line_ref()}",
                origin.span,
                related=[Related(loss.span, f"the loss the target reaches, with predictions {_where(out.device)}")],
                fixes=_cuda_to_device_fix(ctx, origin.span),
                severity=Severity.WARNING,
            )
            continue
        if out is None or target is None or not _mismatch(out.device, target.device):
            continue
        maybe = "auto" in (out.device, target.device)
        where_out = "on the GPU when CUDA is available" if out.device == "auto" else f"on {out.device}"
        where_target = "on the GPU when CUDA is available" if target.device == "auto" else f"on {target.device}"
        related = [Related(target.dev_origin.span, f"the target's device: {target.dev_origin.why}")] if target.dev_origin else []
        root = device_root(target, loss.target_bound or loss.span)
        related[:0] = fails_here(root, loss.span, "Expected all tensors to be on the same device")
        plain, fixes = _plain_attribute(target, root)
        device_expr = _device_expr_of(ctx, out) or (_predictions_device(ctx, loss.span) if target.device == "cpu" else "")
        if device_expr and loss.target_span is not None:
            fixes.append(FixSpec("to_device", f"Move the target to the predictions' device: `.to({device_expr})`", loss.target_span, True, (("device", device_expr),)))
        yield RULE.finding(
            f"the predictions are {where_out} but this target stays {where_target}: {loss.name} at {loss.span.line_ref()} fails with "
            f"\"Expected all tensors to be on the same device\"{plain}",
            root,
            related=related,
            fixes=fixes,
            severity=Severity.WARNING if maybe else Severity.ERROR,
        )


def _plain_attribute(value: Tensor, root: Span) -> tuple[str, list[FixSpec]]:
    """A tensor kept as a plain attribute of a module (`self.mask = torch.ones(...)` in
    `__init__`) and reported where it is kept: `model.to(device)` moves parameters and buffers,
    not it. The words for the message, and the fix: make it a buffer (not persistent, so
    `state_dict()` and the checkpoints saved before keep their keys)."""
    origin = value.dev_origin
    if origin is None or origin.span != root or "as a plain attribute" not in origin.why:
        return "", []
    return (
        "; it is a plain tensor attribute, which `model.to(device)` does not move: register it as a buffer",
        [FixSpec("register_buffer", "Register it as a buffer, which `model.to(device)` moves: `self.register_buffer(..., persistent=False)`", root, True)],
    )


def _where(device: str | None) -> str:
    return "on the GPU when CUDA is available" if device == "auto" else f"on {device}"


def _loss_weights(ctx: Context) -> Iterator[Finding]:
    """A loss built with `weight=` (or `pos_weight=`) on the CPU, fed CUDA predictions."""
    for loss in ctx.events.losses:
        out, weight = tensor(loss.output), tensor(loss.weight)
        if out is None or weight is None or loss.weight_at is None or not _mismatch(out.device, weight.device):
            continue
        if weight.ndim == 0 or (weight.ndim is None and loss.kind in ("bce", "bce_logits")):
            # a 0-dim CPU tensor is a scalar to a CUDA kernel (dsmil-wsi's `pos_weight`, scan 29),
            # and a BCE weight's rank not known may be one (a class weight of cross-entropy is 1-D)
            continue
        error = "Expected all tensors to be on the same device"
        root, where = loss.weight_at, "where the loss is built"
        made = weight.dev_origin
        if loss.weight_at == loss.span and made is not None and made.span.line != loss.span.line and not made.why.startswith(DATA_WHYS):
            # a functional loss given a weight made elsewhere (`pos_weight=self.pos_weight`): it is
            # a constant, moved once where it is made rather than at every call
            root, where = made.span, "where it is made"
        related = fails_here(root, loss.span, error)
        if made is not None and made.span != root:
            related.append(Related(made.span, f"the weight's device: {made.why}"))
        yield RULE.finding(
            f"the loss weight stays {_where(weight.device)} but the predictions are {_where(out.device)}: {loss.name} at line "
            f"{loss.span.line} fails with \"{error}\"; move the weight with `.to(device)` {where}",
            root,
            related=related,
            severity=Severity.WARNING if "auto" in (out.device, weight.device) else Severity.ERROR,
        )


def _ops(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`torch.cat`/`stack`/`mm`/`@` need every input on one device (no CPU-scalar exception)."""
    for op in ctx.events.ops:
        if op.name == ".numpy()" or op.name.startswith(("np.", "sklearn.")):
            yield from _numpy_of_gpu(op)
            continue
        if op.name == "pack_padded_sequence":
            yield from _lengths_on_gpu(op, seen)
            continue
        if op.name == "[]":
            continue  # an index of a dtype torch refuses (DG005); a CPU index into a CUDA tensor is allowed
        tensors = [t for t in (tensor(v) for v in op.inputs) if t is not None]
        accel = next((t for t in tensors if t.device in ("cuda", "auto", "meta")), None)
        cpu = next((t for t in tensors if t.device == "cpu"), None)
        hard = next((t for t in tensors if hard_coded_cuda(t)), None)
        if cpu is None and hard is not None and any(t.device == "auto" for t in tensors):
            found = _hard_cuda_op(ctx, op, hard, seen)
            if found is not None:
                yield found
            continue
        if accel is None or cpu is None:
            continue
        hard_coded = accel.device == "cuda" and accel.dev_origin is not None and accel.dev_origin.why.startswith("created with device=")
        odd, other = (accel, cpu) if hard_coded else (cpu, accel)  # `device="cuda"` written into CPU code
        root = odd.dev_origin.span if hard_coded and odd.dev_origin else device_root(cpu, op.span)
        if root in seen:
            continue
        seen.add(root)
        error = "Expected all tensors to be on the same device"
        related = fails_here(root, op.span, error)
        if other.dev_origin is not None:
            related.append(Related(other.dev_origin.span, f"the other input's device: {other.dev_origin.why}"))
        plain, fixes = _plain_attribute(odd, root)
        made_here = not hard_coded and cpu.dev_origin is not None and cpu.dev_origin.span == root and "follows the default device" in cpu.dev_origin.why
        if (hard_coded or made_here) and odd.dev_origin is not None:
            # a factory that made the CPU tensor (`torch.tensor(weights)`, the class-balanced loss: set
            # 59) or wrote `device="cuda"`: made on the device of the tensor it meets, it runs on both
            follow = _device_of_operand(ctx, op, other, odd.dev_origin.span)
            if follow:
                fixes.append(FixSpec(
                    "set_kwarg", f"Create it on the device of the tensor it meets: `device={follow}`", root, True,
                    (("name", "device"), ("value", follow)),
                ))
        yield RULE.finding(
            f"this tensor is {_where(odd.device)} but `{op.name}` at {op.span.line_ref()} combines it with one {_where(other.device)}: "
            f"it fails with \"{error}\"{plain}",
            root,
            related=related,
            fixes=fixes,
            severity=Severity.WARNING if accel.device == "auto" else Severity.ERROR,
        )


_LENGTHS_ERROR = "'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor"


def _lengths_on_gpu(op: TensorOp, seen: set[Span]) -> Iterator[Finding]:
    """`pack_padded_sequence(x, lengths)` with `lengths` moved to the GPU along with the batch:
    it fails whatever the data's device. Reported where the lengths were moved (the fix: keep
    them on the CPU), at the call when that is not known."""
    lengths = tensor(op.inputs[0]) if op.inputs else None
    if lengths is None or lengths.device not in ("cuda", "auto"):
        return
    moved = lengths.dev_origin
    root = moved.span if moved is not None and moved.span.file == op.span.file else op.span
    if root in seen:
        return
    seen.add(root)
    when = "" if lengths.device == "cuda" else " when CUDA is available"
    related = fails_here(root, op.span, _LENGTHS_ERROR)
    if moved is not None and root == op.span:
        related.append(Related(moved.span, f"the lengths' device: {moved.why}"))
    yield RULE.finding(
        f"the lengths given to `pack_padded_sequence` at {op.span.line_ref()} are on the GPU{when}: it fails with "
        f"\"{_LENGTHS_ERROR}\" (they must stay on the CPU: keep them out of `.to(device)`, or pass `lengths.cpu()`)",
        root,
        related=related,
        severity=Severity.WARNING if lengths.device == "auto" else Severity.ERROR,
    )


def _available_device_name(ctx: Context) -> str:
    """The top-level name bound once to CUDA-if-available (`device = torch.device("cuda" if
    torch.cuda.is_available() else "cpu")`) and nowhere rebound (no parameter or local of that
    name): what `.cuda()` may become everywhere in the file. Once per check (`memo`): it walks
    the whole tree, and every DG009 finding asks."""
    return ctx.memo("available_device_name", lambda: _find_available_device_name(ctx))


def _find_available_device_name(ctx: Context) -> str:
    tree = ctx.tree
    if tree is None:
        return ""
    found = [(name, stmt) for stmt in tree.body if (name := source.device_assignment(stmt))]
    if len(found) != 1:
        return ""
    name, stmt = found[0]
    text = ast.unparse(stmt)
    if not ("is_available()" in text and "cuda" in text and "cpu" in text):
        return ""
    stores = sum(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(tree))
    params = any(isinstance(n, ast.arg) and n.arg == name for n in ast.walk(tree))
    return name if stores == 1 and not params else ""


_MOVES = frozenset({"to", "cpu", "cuda", "numpy", "tolist", "item", "type", "pin_memory", "share_memory_"})


def _device_of_operand(ctx: Context, op: TensorOp, other: Tensor, made: Span) -> str:
    """`<name>.device` for the operand a hard-coded `device="cuda"` tensor meets, when that
    operand is a tensor name, or methods/indexing on it that keep its device
    (`boxes.reshape(-1, 4)[:, 1]`), and the name means the same tensor where the hard-coded one
    is made (same function, bound above it, not rebound before the op)."""
    if ctx.tree is None:
        return ""
    i = next((k for k, v in enumerate(op.inputs) if v is other), None)
    at = (op.span.line, op.span.col, op.span.end_line, op.span.end_col)
    written = next((n for n in ast.walk(ctx.tree) if isinstance(n, (ast.BinOp, ast.Call)) and (n.lineno, n.col_offset, n.end_lineno, n.end_col_offset) == at), None)
    operands = [written.left, written.right] if isinstance(written, ast.BinOp) else written.args if isinstance(written, ast.Call) else []
    if i is None or i >= len(operands) or len(operands) != len(op.inputs):
        return ""
    node: ast.expr = operands[i]
    while not isinstance(node, ast.Name):
        if isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr not in _MOVES:
            node = node.func.value
        else:
            return ""  # an attribute (`self.weight`), a function's result: not known to be this tensor
    if not same_binding(ctx.tree, node.id, made.line, op.span.line):
        return ""
    return f"{node.id}.device"


def _numpy_of_gpu(op: TensorOp) -> Iterator[Finding]:
    t = tensor(op.inputs[0])
    if t is None or t.device not in ("cuda", "auto"):
        return
    error = "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
    related = [Related(t.dev_origin.span, f"the tensor's device: {t.dev_origin.why}")] if t.dev_origin else []
    fixes = [FixSpec("append_call", "Copy it to the CPU first: `.cpu()`", op.arg_spans[0], True, (("method", "cpu"),))] if op.arg_spans else []
    call = "`.numpy()`" if op.name == ".numpy()" else f"`{op.name}` reads it as a NumPy array and"
    yield RULE.finding(
        f"this tensor is {_where(t.device)}: {call} fails with \"{error}\"",
        op.span,
        related=related,
        fixes=fixes,
        severity=Severity.WARNING if t.device == "auto" else Severity.ERROR,
    )


def _device_expr_of(ctx: Context, out: object) -> str:
    """How the file names the device the model was moved to (from the forward events)."""
    for fw in ctx.events.forwards:
        if fw.module.device_expr and fw.module.device in ("cuda", "auto"):
            return _safe_device_expr(fw.module.device, fw.module.device_expr)
    return ""


_CASTS = frozenset({"float", "double", "half", "bfloat16", "long", "contiguous", "squeeze", "detach"})


def _predictions_device(ctx: Context, span: Span) -> str:
    """`<predictions>.device` for a loss call whose predictions are a plain name (or a cast of
    one: `prediction.float()`): the target moved there is on the predictions' device whatever
    that is (graphnet's one-hot target, set 59). Anything else (`model(x)`): no expression."""
    call = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and (n.lineno, n.col_offset) == (span.line, span.col)), None) if ctx.tree else None
    first = call.args[0] if call is not None and call.args else None
    while isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute) and first.func.attr in _CASTS and not first.args and not first.keywords:
        first = first.func.value
    node = first
    while isinstance(node, ast.Attribute):
        node = node.value
    return f"{ast.unparse(first)}.device" if first is not None and isinstance(node, ast.Name) and isinstance(first, (ast.Name, ast.Attribute)) else ""


def _safe_device_expr(device: str | None, expr: str) -> str:
    """The device a fix may write: a name the file uses (`device`), or a literal only when the
    model is on it unconditionally. A model moved by `model.cuda()` under `if use_cuda:` is on
    the GPU only sometimes: `.to("cuda")` would break the CPU run, so no automatic fix."""
    literal = expr[:1] in ("'", '"')
    return "" if literal and device == "auto" else expr


RULE = Rule(
    code="DG009",
    name="device-mismatch",
    severity=Severity.ERROR,
    summary="model and input on different devices",
    explanation=(
        "Every tensor in one op must be on the same device; a CUDA model fed CPU batches (or the "
        "reverse) fails in the forward pass with \"Expected all tensors to be on the same device, "
        "but found at least two devices, cuda:0 and cpu!\". `torch.from_numpy`, DataLoader batches "
        "and the legacy `torch.Tensor(...)` are always on the CPU, whatever the default device. Move "
        "each batch and target with `.to(device)` matching the model's parameters. When the device "
        "is chosen at run time (`cuda if torch.cuda.is_available() else cpu`) this is reported as a "
        "warning: the script works on a CPU-only machine and fails on a GPU one."
    ),
    hazards=("H24", "H03"),
    reported_at=(
        'a torch factory that made a tensor on the default device inside code whose model is on another '
        "device (a hidden state, a mask), the model's creation when the model is the one not moved, a loss "
        'built with a CPU `weight=`, `.numpy()` of a GPU tensor, else the forward (or loss, `torch.cat`, '
        '`mm`) call whose input lives on another device'
    ),
    errors=(
        ErrorPattern(
            r"Expected all tensors to be on the same device",
            (
                "Expected all tensors to be on the same device, but found at least two devices, "
                "cuda:0 and cpu! (when checking argument for argument mat1 in method "
                "wrapper_CUDA_addmm)"
            ),
            "hazards.md H24",
        ),
        ErrorPattern(
            r"Tensor on device \S+ is not on the expected device",
            "Tensor on device meta is not on the expected device cpu!",
            "hazards.md H24",
        ),
        ErrorPattern(
            r"Input type \(torch\.cuda\.\w+\) and weight type \(torch\.(?!cuda\.)\w+\)",
            (
                "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should "
                "be the same"
            ),
            "tests/realworld/broken/a05_captcha_predict_net_on_cpu.py",
        ),
        ErrorPattern(
            r"Input type \(torch\.(?!cuda\.)\w+\) and weight type \(torch\.cuda\.\w+\)",
            (
                "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should "
                "be the same"
            ),
            "tests/realworld4/broken/g16_multitask_cyclegan_batch_left_on_cpu.py",
        ),
        ErrorPattern(
            r"Could not run 'aten::slow_conv3d_forward' with arguments from the 'CUDA' backend",
            "Could not run 'aten::slow_conv3d_forward' with arguments from the 'CUDA' backend",
            "tests/realworld5/broken/h18_deephyperx_test_patches_not_moved.py",
            error_types=("NotImplementedError",),
        ),
    ),
    hint=(
        "every tensor in one op must be on the same device; move each batch and target with "
        ".to(device) matching next(model.parameters()).device."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            # a single layer does not test the mask for being causal: it keeps it (ran on an H200)
            "import torch\nimport torch.nn as nn\nclass Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.layer = nn.TransformerDecoderLayer(16, 2)\n    def forward(self, tgt, memory):\n        mask = torch.triu(torch.full((tgt.shape[0], tgt.shape[0]), float('-inf')), diagonal=1)  # <-\n        return self.layer(tgt, memory, tgt_mask=mask)\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Decoder().to(device)\nmodel(torch.randn(5, 2, 16).to(device), torch.randn(7, 2, 16).to(device))\n",
            "import torch\nimport torch.nn as nn\nclass Embed(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.emb = nn.Embedding(10, 8)\n    def forward(self, x):\n        pos = torch.zeros(x.shape[1], 8)  # <-\n        return self.emb(x) + pos\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Embed().to(device)\nmodel(torch.randint(0, 10, (2, 5)).to(device))\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nnet = nn.Linear(4, 3).to(device)\npreds = []\nwith torch.no_grad():\n    _, pred = torch.max(net(torch.randn(8, 4).to(device)), 1)\n    preds.append(pred.numpy())  # <-\n",
            "import torch\nimport torch.nn as nn\nclass Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n        layer = nn.TransformerDecoderLayer(16, 2)\n        self.decoder = nn.TransformerDecoder(layer, num_layers=1)\n    def forward(self, tgt, memory):\n        pad = torch.zeros(tgt.shape[1], tgt.shape[0], dtype=torch.bool)  # <-\n        return self.decoder(tgt, memory, tgt_key_padding_mask=pad)\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Decoder().to(device)\nmodel(torch.randn(5, 2, 16).to(device), torch.randn(7, 2, 16).to(device))\n",
            "import torch\nimport torch.nn as nn\nclass Cell(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(8, 4)\n    def forward(self, x):\n        h = torch.zeros(x.shape[0], 4)  # <-\n        return self.lin(torch.cat([x, h], dim=1))\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Cell().to(device)\nmodel(torch.randn(2, 4).to(device))\n",
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nweights = torch.tensor([1.0, 2.0, 0.5])\nloss_fn = nn.CrossEntropyLoss(weight=weights)  # <-\nmodel = nn.Linear(4, 3).to(device)\nx = torch.randn(8, 4).to(device)\ny = torch.randint(0, 3, (8,)).to(device)\nloss_fn(model(x), y)\n",
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(3, 1).to(device)\nx = torch.randn(4, 3)  # <-\nmodel(x)\n",
            "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(3, 1).to(device)\nx = torch.randn(4, 3, device=device)\ny = torch.randn(4, 1)  # <-\nloss = F.mse_loss(model(x), y)\n",
            "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\nmodel = nn.Linear(3, 1)\nmodel.cuda()\nloader = DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 1)), batch_size=4)\nfor xb, yb in loader:\n    pred = model(xb)  # <-\n",
            "import torch\nimport torch.nn as nn\ndef to_gpu(m):\n    if torch.cuda.is_available():\n        return m.cuda()\n    return m\nmodel = to_gpu(nn.Linear(3, 1))\nmodel(torch.randn(4, 3))  # <-\n",
            # built on the meta device and moved before anything was loaded (ran on torch 2.13)
            "import torch\nimport torch.nn as nn\nwith torch.device('meta'):  # <-\n    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU())\nmodel.cpu()\n",
            # weights made on the CPU times GPU one-hot labels (the class-balanced loss: set 59)
            "import numpy as np\nimport torch\nimport torch.nn.functional as F\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "def cb_weights(labels, counts):\n    labels_one_hot = F.one_hot(labels, 3).float()\n"
            "    weights = torch.tensor(1.0 / np.array(counts)).float()  # <-\n    return weights.unsqueeze(0) * labels_one_hot\n"
            "cb_weights(torch.randint(0, 3, (8,)).to(device), [5, 3, 1])\n",
            "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n        self.scale = torch.ones(4)  # <-\n    def forward(self, x):\n        return self.fc(x) * self.scale\nmodel = Net().to('cuda')\nmodel(torch.randn(2, 4).cuda())\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n    def forward(self, x, idx):\n        return self.fc(x[idx]) + idx.float().unsqueeze(1)\ndevice = torch.device(\"cuda\")\nmodel = Net().to(device)\nx = torch.randn(5, 3).to(device)\nidx = torch.tensor(np.array([0, 2, 4]))  # <-\nout = model(x, idx)\n",
        ],
        good=[
            # a causal CPU mask: the Transformer stack finds it causal and drops it (ran on an H200)
            "import torch\nimport torch.nn as nn\nclass Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(16, 2), num_layers=1)\n    def forward(self, tgt, memory):\n        mask = torch.triu(torch.full((tgt.shape[0], tgt.shape[0]), float('-inf')), diagonal=1)\n        return self.decoder(tgt, memory, tgt_mask=mask)\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Decoder().to(device)\nmodel(torch.randn(5, 2, 16).to(device), torch.randn(7, 2, 16).to(device))\n",
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(4, 2).to(device)\nscale = torch.tensor(2.0)\nout = model(torch.randn(3, 4).to(device)) * scale\n",
            "import torch\nimport torch.nn as nn\nclass Tok(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.cls = nn.Parameter(torch.zeros(1, 1, 8))\n        self.register_buffer('pos', torch.zeros(1, 5, 8))\n    def forward(self, x):\n        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1)\n        return torch.cat([x, self.pos.expand(x.shape[0], -1, -1)], dim=1)\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Tok().to(device)\nmodel(torch.randn(2, 4, 8).to(device))\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nnet = nn.Linear(4, 3).to(device)\nwith torch.no_grad():\n    _, pred = torch.max(net(torch.randn(8, 4).to(device)), 1)\n    labels = pred.cpu().numpy()\n",
            "import torch\nimport torch.nn as nn\nclass Cell(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.lin = nn.Linear(8, 4)\n    def forward(self, x):\n        h = torch.zeros(x.shape[0], 4, device=x.device)\n        return self.lin(torch.cat([x, h], dim=1))\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = Cell().to(device)\nmodel(torch.randn(2, 4).to(device))\n",
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nloss_fn = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]).to(device))\nmodel = nn.Linear(4, 3).to(device)\nloss_fn(model(torch.randn(8, 4).to(device)), torch.randint(0, 3, (8,)).to(device))\n",
            "import torch\nimport torch.nn as nn\nnet = nn.Linear(4, 2)\ndef act(net, device='cpu'):\n    state = torch.randn(1, 4)\n    if device not in ['cpu']:\n        state = state.cuda(device)\n    return net(state)\nact(net)\n",
            "import sys\nimport torch\nimport torch.nn as nn\ndef step(net, x, device):\n    if device != 'cpu':\n        x = x.cuda()\n    return net(x)\nstep(nn.Linear(4, 2), torch.randn(1, 4), sys.argv[1])\n",
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(3, 1).to(device)\nx = torch.randn(4, 3).to(device)\nmodel(x)\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nmodel(torch.randn(4, 3))\n",
            "import torch\nimport torch.nn as nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = nn.Linear(3, 1).to(device)\nmodel(torch.randn(4, 3, device=device))\n",
            "import torch\nimport torch.nn as nn\ndef build(debug):\n    m = nn.Linear(3, 1)\n    if debug:\n        return m\n    return m\nmodel = build(False)\nmodel(torch.randn(4, 3))\n",
            # every tensor replaced by the checkpoint's (assign=True): nothing is left on the meta device
            "import torch\nimport torch.nn as nn\nsd = nn.Linear(8, 8).state_dict()\nwith torch.device('meta'):\n    model = nn.Linear(8, 8)\nmodel.load_state_dict(sd, assign=True)\nmodel.to('cpu')\n",
            "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n        self.register_buffer('scale', torch.ones(4), persistent=False)\n    def forward(self, x):\n        return self.fc(x) * self.scale\nmodel = Net().to('cuda')\nmodel(torch.randn(2, 4).cuda())\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n    def forward(self, x, idx):\n        return self.fc(x[idx])\ndevice = torch.device(\"cuda\")\nmodel = Net().to(device)\nx = torch.randn(5, 3).to(device)\nidx = torch.tensor(np.array([0, 2, 4]))\nout = model(x, idx)\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n    def forward(self, x, obs_idx):\n        out = torch.zeros(5, 3, device=x.device)\n        for start in range(0, 3, 2):\n            i_obs = obs_idx[start:start + 2]\n            out[i_obs] = self.fc(x[i_obs])\n        return out\ndevice = torch.device(\"cuda\")\nmodel = Net().to(device)\nx = torch.randn(5, 3).to(device)\nout = model(x, torch.tensor(np.array([0, 2, 4])))\n",
        ],
    ),
)
