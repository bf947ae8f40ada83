"""DG004: floating input whose dtype differs from the model's parameters (H06, H07, H12, H23).

Matmul and convolution do not promote, so float64 data (NumPy's default) into a float32 model
fails in the forward pass with "mat1 and mat2 must have the same dtype" and its relatives.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from dtypeguard.engine.call_effects import (
    BOOL_SUM,
    FLOAT_MASK,
    MATMUL,
    MULTI_MATMUL,
    OBJECT_ARRAY,
    SOURCE_OP,
    WEIGHTED,
)
from dtypeguard.engine.events import Forward, TensorOp
from dtypeguard.engine.values import WIDE, Tensor, TupleV, is_float
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules import refused
from dtypeguard.rules.base import (
    TORCH_NAMES,
    Context,
    ErrorPattern,
    Rule,
    convert_fix,
    dtype_root,
    dtype_words,
    expression_at,
    factory_dtype_fix,
    fails_here,
    hidden_dtype_error,
    layer_dtype_error,
    same_binding,
    single_tensor_at,
    tensor,
)


def check(ctx: Context) -> Iterator[Finding]:
    seen: set[Span] = set()  # one finding per root cause: an inner layer sees the same input
    dtypes_at: dict[Span, set[str]] = {}  # the models' dtypes each forward line runs with
    for fw in ctx.events.forwards:
        if fw.module.dtype is not None and is_float(fw.module.dtype):
            dtypes_at.setdefault(fw.span, set()).add(fw.module.dtype)
    for fw in ctx.events.forwards:
        module = fw.module
        if module.input_kind != "float" or fw.autocast or not fw.inputs:
            continue
        x = tensor(fw.inputs[0])
        if x is None or module.dtype is None or not is_float(module.dtype) or x.autocast:
            continue  # autocast outputs leaking out are DG017's
        uint8_image = x.dtype == "uint8" and module.first_layer == "conv"
        wide = x.dtype == WIDE and module.dtype != "float64"  # int64 or float64: wrong either way
        if not (is_float(x.dtype) and x.dtype != module.dtype) and not uint8_image and not wide:
            continue
        assert x.dtype is not None
        related = []
        if x.origin is not None:
            related.append(Related(x.origin.span, f"the input becomes {x.dtype} here: {x.origin.why}"))
        if module.dtype_origin is not None:
            related.append(Related(module.dtype_origin.span, f"the model's parameters are {module.dtype}: {module.dtype_origin.why}"))
        use = fw.arg_spans[0] if fw.arg_spans else None
        why = f"matches the model's {module.dtype}"
        follow = _model_dtype_expr(ctx, fw, x.site) if len(dtypes_at.get(fw.span, ())) > 1 else ""
        if follow:
            why = f"the model at {fw.span.line_ref()} is {' or '.join(sorted(dtypes_at[fw.span]))}, depending on the call"
        fixes = convert_fix(ctx, x, use, module.dtype, why, follow)
        line = fw.span.line
        model_side = module.dtype != "float32" and x.dtype == "float32" and not module.chosen_dtype
        made_inside = fw.nested and x.origin is not None and not x.origin.span.file and "follows the default dtype" in x.origin.why and _in_forward_code(ctx, x.origin.span)
        filled = x.filled_with == module.dtype and x.filled_at is not None and x.origin is not None and "follows the default dtype" in x.origin.why
        if model_side and filled:
            # torchdde's `ys = torch.empty(...)` filled with the float64 solution of a float64
            # model (set 64): the values are the model's dtype; the buffer's default is the mistake
            model_side = False
            assert x.filled_at is not None
            related.append(Related(x.filled_at, f"{x.filled_with} values are written into it here, and converted to {x.dtype}"))
            assert x.origin is not None
            fixes = factory_dtype_fix(ctx, x.origin.span, module.dtype, f"the values written into it and the model are {module.dtype}") or fixes
        cast_inside = (
            fw.nested and x.origin is not None and not x.origin.span.file and x.origin.why.startswith(".") and _in_forward_code(ctx, x.origin.span)
        )
        if model_side and cast_inside and x.origin is not None:
            # a forward that upcasts (`gate.to(torch.float32)`) and hands the float32 result to the
            # next layer of a bfloat16 model (vLLM's Falcon-H1 gated norm, set 70): the model's dtype
            # is chosen; the forward's cast that is never undone is where the fix goes
            model_side = False
        if model_side and made_inside:
            # ACmix's position grid (`torch.linspace` in `forward`, set 61): made float32 on every call
            # whatever the model's dtype; where it is made is where it should follow the model
            model_side = False
            fixes = [f for f in fixes if follow]
        spawned = module.dtype_origin if module.dtype_origin is not None and "a spawned process does not inherit it" in module.dtype_origin.why else None
        if spawned is not None and not model_side:
            # `mp.spawn(worker, ...)` after `torch.set_default_dtype(torch.float64)` in `__main__`
            # (pytorch#75269, set 80): the data keeps float64, the worker's model is float32; the
            # default is what the worker must set again
            model_side = True
        rebuilt = None if model_side else _rebuilt_after_cast(ctx, fw, x)
        if rebuilt is not None:
            # timm's `reset_classifier` after `model.to(torch.float64)` (set 76): the new layer
            # follows the default dtype, not the model it joins; its creation is where the fix goes
            related = [r for r in related if r.span != rebuilt]
            related.insert(0, Related(rebuilt, f"the model is cast to {x.dtype} here, before this layer exists"))
            fixes = _layer_dtype_fix(ctx, module.origin.span, x.dtype) if module.made_at is None else []
        if model_side and spawned is not None:
            fixes = []
            root = spawned.span
            related.append(Related(module.origin.span, f"the model is built here, in the spawned process, as {module.dtype}"))
        elif model_side:
            model_root = module.cast_span or (module.dtype_origin.span if module.dtype_origin else None)
            if module.cast_span is None and module.honours_default and module.dtype_origin is not None and "the default dtype" in module.dtype_origin.why:
                model_root = module.origin.span  # built while the default was float64: where the model is made
                setter = _default_setter(ctx, module.dtype, fw.time)
                if setter is not None:  # the call that made the default float64 is what to change
                    related.append(Related(module.origin.span, f"the model is built here while the default dtype is {module.dtype}"))
                    model_root = setter
            root = model_root or fw.span
        elif rebuilt is not None:
            root = module.made_at or module.origin.span
        elif (made_inside or filled or cast_inside) and x.origin is not None:
            root = x.origin.span
        else:
            root = dtype_root(x, fw.span, float_data=True)
        if uint8_image:
            error = layer_dtype_error("conv", "uint8", module.dtype) or ""
            message = (
                f"uint8 images reach a {module.dtype} convolution: the forward pass at line {line} fails with "
                f"\"{error}\"; convert with `.float() / 255`"
            )
            fixes = convert_fix(ctx, x, use, module.dtype, "convolutions need floating-point images; divide by 255 too if the model was trained on [0, 1]")
        else:
            said = layer_dtype_error(module.first_layer, "float64" if wide else x.dtype, module.dtype)
            if said is None:
                continue  # a float16 input to a float32 norm passes it; whether a layer after it refuses it is not known here
            error = said
            fails = f"fails with \"{said}\""
            as_ints = layer_dtype_error(module.first_layer, "int64", module.dtype) if wide else None
            if as_ints and as_ints != said:  # which of the two errors depends on the file's numbers
                error = f"{said} (float64 data), or {as_ints} (int64 data)"
                fails = f"fails with \"{said}\" (float64 data) or \"{as_ints}\" (int64 data)"
            if spawned is not None:
                message = (
                    f"the processes this call starts do not inherit the parent's default dtype: the model built in them is "
                    f"{dtype_words(module.dtype)} but its input is {dtype_words(x.dtype)}, so the forward pass at line {line} {fails} "
                    f"(set the default again at the start of the worker)"
                )
            elif model_side:
                message = (
                    f"the model's parameters become {dtype_words(module.dtype)} here but its input is {dtype_words(x.dtype)}: "
                    f"the forward pass at line {line} {fails}"
                )
            elif rebuilt is not None:
                message = (
                    f"this layer is created with the default dtype, {dtype_words(module.dtype)}, after the model was cast to "
                    f"{dtype_words(x.dtype)} at {rebuilt.line_ref()}: the forward pass at line {line} {fails}"
                )
            else:
                message = (
                    f"this input is {dtype_words(x.dtype)} but the model's parameters are {dtype_words(module.dtype)}: "
                    f"the forward pass at line {line} {fails}"
                )
        if root in seen or (fw.nested and root == fw.span):
            continue  # reported already, or an inner layer of a forward reported at its call
        seen.add(root)
        related[:0] = fails_here(root, fw.span, error)
        yield RULE.finding(message, root, related=related, fixes=fixes)
    yield from _hidden_states(ctx, seen)
    yield from _matmuls(ctx, seen)
    yield from _object_arrays(ctx, seen)
    yield from _source_dtypes(ctx, seen)
    yield from _refused(ctx, seen)
    yield from _bool_sums(ctx, seen)
    yield from _float_masks(ctx, seen)



def _hidden_states(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """An initial hidden state `(h0, c0)` passed to an `nn.LSTM`/`GRU`/`RNN` whose dtype is not
    the layer's weights' (`torch.tensor(np.random.randn(...))` makes float64): the forward fails
    whatever the input is. Reported where the state is made."""
    for fw in ctx.events.forwards:
        module = fw.module
        if fw.autocast or len(fw.inputs) < 2 or module.dtype is None:
            continue
        given = fw.inputs[1]
        states = given.items if isinstance(given, TupleV) else (given,)
        for h in (tensor(v) for v in states):
            if h is None or h.dtype is None or h.autocast:
                continue
            error = hidden_dtype_error(module.cls, h.dtype, module.dtype)
            if error is None:
                continue
            model_side = h.dtype == "float32" and not module.chosen_dtype  # the default-made state, the model cast
            root = (module.cast_span or (module.dtype_origin.span if module.dtype_origin else None)) if model_side else None
            root = root or dtype_root(h, fw.span, float_data=True)
            if root in seen:
                break
            seen.add(root)
            related = fails_here(root, fw.span, error)
            if h.origin is not None:
                related.append(Related(h.origin.span, f"the hidden state becomes {h.dtype} here: {h.origin.why}"))
            if module.dtype_origin is not None:
                related.append(Related(module.dtype_origin.span, f"the {module.cls.rsplit('.', 1)[-1]}'s weights are {module.dtype}: {module.dtype_origin.why}"))
            layer = module.cls.rsplit(".", 1)[-1]
            fixes = [] if model_side else convert_fix(ctx, h, None, module.dtype, f"matches the {layer}'s {module.dtype} weights")
            said = (
                f"the {layer}'s weights become {dtype_words(module.dtype)} here but its initial hidden state is {dtype_words(h.dtype)}"
                if model_side and root != fw.span else
                f"this initial hidden state is {dtype_words(h.dtype)} but the {layer}'s weights are {dtype_words(module.dtype)}"
            )
            yield RULE.finding(
                f"{said}: the forward pass at {fw.span.line_ref()} fails on CPU with \"{error}\"",
                root,
                related=related,
                fixes=fixes,
            )
            break


def _rebuilt_after_cast(ctx: Context, fw: Forward, x: Tensor) -> Span | None:
    """The cast of a whole model that made this input's dtype, when the layer it reaches was
    created after that cast with the default dtype (a classifier head reset after
    `model.to(torch.float64)`): the layer is the odd one out, not the data."""
    module = fw.module
    if x.origin is None or module.cast_span is not None or module.dtype_origin is None or "the default dtype" not in module.dtype_origin.why:
        return None
    for cast in ctx.events.casts:
        if cast.span == x.origin.span and cast.after.dtype == x.dtype and cast.time <= module.created_time and cast.time <= fw.time:
            return cast.span
    return None


_LAYERS = ("Linear", "Conv1d", "Conv2d", "Conv3d", "Bilinear", "Embedding", "LayerNorm")


def _layer_dtype_fix(ctx: Context, span: Span, dtype: str) -> list[FixSpec]:
    """`dtype=torch.<dtype>` added to a one-line layer constructor (`nn.Linear(d, n)`)."""
    call = ctx.snippet(span)
    name = call.split("(")[0].strip().rsplit(".", 1)[-1]
    if span.file or span.line != span.end_line or not call.endswith(")") or "dtype" in call or name not in _LAYERS:
        return []
    return [FixSpec("add_kwarg", f"Create the layer as {dtype}: add `dtype=torch.{dtype}` (the rest of the model is {dtype})", span, True,
                    (("name", "dtype"), ("value", f"torch.{dtype}")))]


def _model_dtype_expr(ctx: Context, fw: Forward, site: Span | None) -> str:
    """`next(<model>.parameters()).dtype` for the model a forward call names (`self.model(x)`),
    when that name means the same model where the input is created (same function, above the
    call, not rebound in between); "" otherwise."""
    if ctx.tree is None or site is None or site.line > fw.span.line:
        return ""
    call = next((n for n in ast.walk(ctx.tree) if isinstance(n, ast.Call) and (n.lineno, n.col_offset) == (fw.span.line, fw.span.col)), None)
    if call is None:
        return ""
    root: ast.expr = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name):
        return ""  # `make_model()(x)`, `models[i](x)`: nothing to name at the creation
    if not same_binding(ctx.tree, root.id, site.line, fw.span.line, attributes=True):
        return ""
    return f"next({ast.unparse(call.func)}.parameters()).dtype"


def _default_setter(ctx: Context, dtype: str, before: int) -> Span | None:
    """The last `set_default_dtype`/`set_default_tensor_type` call before `before` that made the
    default `dtype`, when it sits inside a function or block (a setup helper run mid-script, as in
    the real reports): the place to fix a model whose layers took that default. A call at the top
    of the file is the script's deliberate choice; then the model or input that departs from it is
    where the fix goes."""
    made = [s for s in ctx.events.set_defaults if s.time < before and s.what in ("dtype", "tensor_type") and s.dtype.value == dtype]
    return made[-1].span if made and made[-1].span.col > 0 else None


_INPLACE = frozenset({".add_()", ".sub_()", ".mul_()", ".div_()", ".clamp_()", ".clip_()", ".pow_()", "+=", "-=", "*=", "/="})
_TORCH_NAME = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "float64": "Double", "float32": "Float", "float16": "Half", "bfloat16": "BFloat16"}


def _inplace(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """An in-place op keeps its receiver's dtype: on an integer tensor, a float operand (or true
    division) gives a float result that cannot be cast back, and the op fails."""
    for op in ctx.events.ops:
        if op.name not in _INPLACE or len(op.inputs) != 2:
            continue
        t = tensor(op.inputs[0])
        # (the operand: a float tensor, or a Python float: `counts.mul_(0.5)` fails too)
        other = op.inputs[1] if isinstance(op.inputs[1], Tensor) and op.inputs[1].kind in ("tensor", "pyfloat") else None
        line = Span(op.span.line, 0, op.span.line, 0)  # `gj.clamp_(...), gi.clamp_(...)`: one finding a line
        if t is None or t.dtype is None or other is None or line in seen:
            continue
        seen.add(line)
        result = other.dtype if other.kind == "tensor" and other.dtype else "float32"
        want = "long int" if op.name in (".clamp_()", ".clip_()") and t.dtype == "int64" else _TORCH_NAME.get(t.dtype, t.dtype)
        error = f"result type {_TORCH_NAME.get(result, result)} can't be cast to the desired output type {want}"
        related = fails_here(op.span, op.span, error)
        if t.origin is not None:
            related.append(Related(t.origin.span, f"the tensor updated in place is {t.dtype} here: {t.origin.why}"))
        if other.kind == "tensor" and other.origin is not None:
            related.append(Related(other.origin.span, f"the operand is {other.dtype}: {other.origin.why}"))
        what = "divides it" if op.name in (".div_()", "/=") and other.kind == "pyfloat" else "takes a floating operand"
        fixes = []
        if op.name in (".clamp_()", ".clip_()") and (other.kind == "pyfloat" or other.ndim == 0):
            fixes.append(FixSpec("int_bounds", "Make the bounds integers: `int(...)` (the tensor stays integral)", op.span, True))
        advice = "make the result a new tensor, or convert one side first"
        if t.origin is not None and "num_batches_tracked" in t.origin.why:
            advice = "update only the floating entries: `if param.dtype.is_floating_point:`, and copy the others"
        yield RULE.finding(
            f"`{op.name.strip('.()') if op.name.startswith('.') else op.name}` updates an {t.dtype} tensor in place but {what}: "
            f"it fails with \"{error}\" ({advice})",
            op.span,
            related=related,
            fixes=fixes,
        )


_C10_NAME = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int",
    "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
}


def _source_errors(method: str, into: str, source: str, operand: str = "") -> str:
    """torch 2.13's words for `method` with a tensor of dtype `into` taking a `source` one
    (`operand`: lerp's `end` or `weight`)."""
    if method.startswith("lerp"):
        return f"expected dtype {_C10_NAME.get(into, into)} for `{operand or 'end'}` but got dtype {_C10_NAME.get(source, source)}"
    if method == "set_":
        return f"Could not set tensor of type {_C10_NAME.get(source, source)} to a tensor of type {_C10_NAME.get(into, into)}"
    a, b = _TORCH_NAME.get(into, into), _TORCH_NAME.get(source, source)
    if method.startswith("scatter"):
        return "scatter(): Expected self.dtype to be equal to src.dtype"
    if method.startswith("index_add"):
        return f"index_add_(): self ({a}) and source ({b}) must have the same scalar type"
    if method.startswith("index_copy"):
        return f"index_copy_(): self and source expected to have the same dtype, but got (self) {a} and (source) {b}"
    if method == "index_put_":
        return f"Index put requires the source and destination dtypes match, got {a} for the destination and {b} for the source."
    if method.startswith("masked_scatter"):
        return f"masked_scatter: expected self and source to have same dtypes but got{a} and {b}"
    return f"put_(): self and source expected to have the same dtype, but got self.dtype = {a} and source.dtype = {b}"


def _source_dtypes(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`acc.scatter_add_(0, index, src)` with `acc` made float32 and `src` float64: torch does
    not promote the values written in. The tensor written into is where the fix goes when the
    script made it here with a dtype of its choosing (torch-sim's `torch.zeros(n, dtype=dtype)`,
    fixed to `dtype=src.dtype`); else the source's origin; related: where it fails."""
    for op in ctx.events.ops:
        if not op.name.startswith(SOURCE_OP) or len(op.inputs) != 2:
            continue
        into, source = tensor(op.inputs[0]), tensor(op.inputs[1])
        if into is None or source is None or into.dtype is None or source.dtype is None:
            continue
        method, _, operand = op.name[len(SOURCE_OP) + 1 :].removesuffix("()").partition("():")
        error = _source_errors(method, into.dtype, source.dtype, operand)
        # (an indexed write: the value is where the fix goes, unless floats go into an integer tensor)
        value_first = method.startswith("lerp") or method == "set_" or (method == "index_put_" and is_float(into.dtype))
        own = [t.origin.span for t in ((source, into) if value_first else (into, source)) if t.origin is not None and not t.origin.span.file]
        # (an accumulator written into is made for the op: its dtype is where the fix goes; a lerp's
        # `end`/`weight` is the operand whose dtype differs from the tensor interpolated, and so is
        # the storage `param.set_(source)` hands a parameter: GRU4Rec's float64 NumPy init, scan 35)
        root = own[0] if own else op.span
        if root in seen:
            continue
        seen.add(root)
        related = fails_here(root, op.span, error)
        if into.origin is not None and into.origin.span != root:
            role = "the tensor interpolated" if method.startswith("lerp") else "the tensor written into"
            related.append(Related(into.origin.span, f"{role} is {into.dtype} here: {into.origin.why}"))
        if source.origin is not None and source.origin.span != root:
            role = f"its `{operand}` is" if method.startswith("lerp") else "the values written in are"
            related.append(Related(source.origin.span, f"{role} {source.dtype} here: {source.origin.why}"))
        if method.startswith("lerp"):
            message = (
                f"`{method}` interpolates a {dtype_words(into.dtype)} tensor with a {dtype_words(source.dtype)} `{operand}`, and torch does not "
                f"convert it: it fails with \"{error}\" (make both one dtype: convert one side first)"
            )
        elif method == "set_":
            message = (
                f"`.set_()` gives a {dtype_words(into.dtype)} tensor the storage of a {dtype_words(source.dtype)} one, and torch does not convert it: "
                f"it fails with \"{error}\" (convert the source to the tensor's dtype first, e.g. `.to(weight.dtype)`, or copy the values with `.copy_()`)"
            )
        elif method == "index_put_":
            message = (
                f"this indexed assignment writes a {dtype_words(source.dtype)} tensor into a {dtype_words(into.dtype)} one through an index tensor "
                f"(`index_put_`), and torch does not convert it: it fails with \"{error}\" (write a Python number, or convert the value to the tensor's dtype)"
            )
        else:
            message = (
                f"`.{method}()` writes {dtype_words(source.dtype)} values into a {dtype_words(into.dtype)} tensor, and torch does not convert them: "
                f"it fails with \"{error}\" (make both one dtype: create this one with the source's dtype, or convert the source)"
            )
        fixes = []
        cast = {"float32": "float", "float64": "double", "float16": "half", "bfloat16": "bfloat16"}.get(into.dtype)
        if method == "set_" and cast and op.arg_spans:
            # the parameter keeps its dtype; its new storage is converted where it is handed over
            fixes.append(FixSpec("append_call", f"Convert the new storage to the tensor's {into.dtype}: `.{cast}()`", op.arg_spans[0], True, (("method", cast),)))
        yield RULE.finding(message, root, related=related, fixes=fixes)


_OBJECT_ERROR = "can't convert np.ndarray of type numpy.object_"


def _object_arrays(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """torch converts no NumPy object array (bool columns beside number columns make one of a
    frame's `.values`, since pandas 2's `get_dummies` makes bool columns): the conversion is
    where it fails and where the fix goes, a number dtype for the array."""
    for op in ctx.events.ops:
        if op.name != OBJECT_ARRAY or op.span in seen:
            continue
        seen.add(op.span)
        array = op.inputs[0] if op.inputs and isinstance(op.inputs[0], Tensor) else None
        related = [Related(array.origin.span, f"the array is an object array: {array.origin.why}")] if array is not None and array.origin is not None and array.origin.span != op.span else []
        fixes = [FixSpec("append_call", "Give torch numbers: `.astype('float32')` on the array", op.arg_spans[0], True, (("method", "astype"), ("arg", "'float32'")))] if op.arg_spans else []
        yield RULE.finding(
            f"this converts a NumPy object array, which torch refuses whatever `dtype=` asks for: it fails with \"{_OBJECT_ERROR}\" "
            "(bool columns beside number columns make a frame's `.values` an object array: convert to a number dtype first)",
            op.span,
            related=related,
            fixes=fixes,
        )


def _matmuls(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`torch.mm`/`matmul`/`bmm`/`@` do not promote: a float64 operand meets a float32 one."""
    yield from _inplace(ctx, seen)
    for op in ctx.events.ops:
        if op.name.removeprefix("torch.") in WEIGHTED:
            yield from _weighted(ctx, op, seen)
            continue
        multi = op.name.removeprefix("torch.") in MULTI_MATMUL
        if op.autocast or op.name.removeprefix("torch.").removeprefix("Tensor.") not in MATMUL or len(op.inputs) < 2 or (len(op.inputs) != 2 and not multi):
            continue
        a, b = tensor(op.inputs[0]), tensor(op.inputs[1])
        if multi:
            # the first matrix of another dtype than the first one's (torch names those two)
            # (with the first one not known, two known ones of different dtypes still make it fail)
            floats = [(k, t) for k, t in enumerate(tensor(v) for v in op.inputs) if t is not None and is_float(t.dtype)]
            odd_at = next((k for k, t in floats if floats and t.dtype != floats[0][1].dtype), None)
            if odd_at is None:
                continue
            a, b = floats[0][1], tensor(op.inputs[odd_at])
            first_known = floats[0][0] == 0
        if a is not None and b is not None and a.kind == b.kind == "tensor" and a.dtype == b.dtype and a.dtype in _WRAPPING and op.span not in seen:
            seen.add(op.span)
            yield _wrapping_product(op, a, b)
            continue
        if a is None or b is None or not (is_float(a.dtype) and is_float(b.dtype)) or a.dtype == b.dtype:
            continue
        odd = b if a.dtype == "float32" else a
        other = a if odd is b else b
        root = dtype_root(odd, op.span, float_data=True)
        if root in seen:
            continue
        seen.add(root)
        if multi:
            assert a is not None and b is not None
            error = "multi_dot(): all tensors must have be the same dtype" + (
                f" but tensor 0 is {TORCH_NAMES[a.dtype or ''][1]} and tensor {odd_at} {TORCH_NAMES[b.dtype or ''][1]}" if first_known else ""
            )
        elif op.name.endswith(("bmm", "einsum", "spmm", "sparse.mm")):
            error = f"expected scalar type {TORCH_NAMES[a.dtype or ''][0]} but found {TORCH_NAMES[b.dtype or ''][0]}"
        elif op.name.endswith(("tensordot", "inner")):
            error = "both inputs should have same dtype"
        elif op.name.endswith(".dot"):
            error = f"dot : expected both vectors to have same dtype, but found {TORCH_NAMES[a.dtype or ''][0]} and {TORCH_NAMES[b.dtype or ''][0]}"
        else:
            error = f"expected m1 and m2 to have the same dtype, but got: {TORCH_NAMES[a.dtype or ''][1]} != {TORCH_NAMES[b.dtype or ''][1]}"
        related = fails_here(root, op.span, error)
        if odd.origin is not None and odd.origin.span != root:
            related.append(Related(odd.origin.span, f"it becomes {odd.dtype} here: {odd.origin.why}"))
        if other.origin is not None:
            related.append(Related(other.origin.span, f"the other operand is {other.dtype}: {other.origin.why}"))
        yield RULE.finding(
            f"this tensor is {dtype_words(odd.dtype)} but `{op.name}` at {op.span.line_ref()} multiplies it with "
            f"{dtype_words(other.dtype)}: it fails with \"{error}\"",
            root,
            related=related,
            fixes=convert_fix(ctx, odd, None, other.dtype or "float32", f"matches the other operand's {other.dtype}") or _autocast_back(ctx, odd, other.dtype, root),
        )


def _weighted(ctx: Context, op: TensorOp, seen: set[Span]) -> Iterator[Finding]:
    """`F.linear`/`F.conv1d`/`F.conv2d` with an input of another dtype than the float weight
    (int16 audio samples, uint8 pixels, float64 features): no promotion, it fails."""
    x, w = (tensor(v) for v in (*op.inputs, None, None)[:2])
    if op.autocast or x is None or w is None or not is_float(w.dtype) or x.dtype is None or x.dtype == w.dtype or x.dtype == WIDE:
        return
    if x.dtype == "float32" and w.origin is not None and not w.origin.span.file:
        yield from _odd_weight(ctx, op, x, w, seen)  # float32 input, a weight made float64 here (g2net's CWT bank, scan 30)
        return
    root = dtype_root(x, op.span, float_data=True)
    if root in seen:
        return
    seen.add(root)
    got = TORCH_NAMES.get(x.dtype, (x.dtype, x.dtype))
    want = TORCH_NAMES.get(w.dtype or "", (w.dtype or "", w.dtype or ""))
    if op.name.endswith("linear"):
        error = f"expected m1 and m2 to have the same dtype, but got: {got[1]} != {want[1]}"
    else:
        error = f"expected scalar type {got[0]} but found {want[0]}"
    related = fails_here(root, op.span, error)
    if x.origin is not None and x.origin.span != root:
        related.append(Related(x.origin.span, f"it becomes {x.dtype} here: {x.origin.why}"))
    yield RULE.finding(
        f"this input is {dtype_words(x.dtype)} but the weight of `{op.name.rsplit('.', 1)[-1]}` at {op.span.line_ref()} is "
        f"{dtype_words(w.dtype)}: it fails with \"{error}\"",
        root,
        related=related,
        fixes=convert_fix(ctx, x, None, w.dtype or "float32", f"matches the weight's {w.dtype}") or _autocast_back(ctx, x, w.dtype, root),
    )


def _in_forward_code(ctx: Context, span: Span) -> bool:
    """Is `span` in a module's `forward`, or in a top-level function a `forward` calls by name
    (ACmix's `position(h, w)`)? There a tensor is made on every call, whatever the model's dtype."""
    if ctx.tree is None:
        return False
    forwards: list[ast.FunctionDef] = []
    for c in ctx.tree.body:
        if not isinstance(c, ast.ClassDef):
            continue
        methods = {f.name: f for f in c.body if isinstance(f, ast.FunctionDef)}
        if "forward" not in methods:
            continue
        forwards.append(methods["forward"])
        # and the methods `forward` calls on self (vLLM's `forward` -> `self.forward_native(...)`, set 70)
        own = {n.func.attr for n in ast.walk(methods["forward"]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
        forwards += [f for name, f in methods.items() if name in own and name != "forward"]
    called = {n.func.id for f in forwards for n in ast.walk(f) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    helpers = [f for f in ctx.tree.body if isinstance(f, ast.FunctionDef) and f.name in called]
    return any(f.lineno <= span.line <= (f.end_lineno or f.lineno) for f in (*forwards, *helpers))


def _odd_weight(ctx: Context, op: TensorOp, x: Tensor, w: Tensor, seen: set[Span]) -> Iterator[Finding]:
    """The weight given to `F.conv1d`/`F.linear` is the odd one (a float64 NumPy filter bank made
    an `nn.Parameter`) and its float32 input is what the rest of the model uses: the fix goes
    where the weight is made."""
    root = dtype_root(w, op.span, float_data=True)
    if root in seen:
        return
    seen.add(root)
    got = TORCH_NAMES.get(x.dtype or "", ("", ""))
    want = TORCH_NAMES.get(w.dtype or "", ("", ""))
    error = f"expected m1 and m2 to have the same dtype, but got: {got[1]} != {want[1]}" if op.name.endswith("linear") else f"expected scalar type {got[0]} but found {want[0]}"
    related = fails_here(root, op.span, error)
    if w.origin is not None and w.origin.span != root:
        related.append(Related(w.origin.span, f"it becomes {w.dtype} here: {w.origin.why}"))
    yield RULE.finding(
        f"this weight is {dtype_words(w.dtype)} but `{op.name.rsplit('.', 1)[-1]}` at {op.span.line_ref()} gets a "
        f"{dtype_words(x.dtype)} input: it fails with \"{error}\"",
        root,
        related=related,
        fixes=convert_fix(ctx, w, None, "float32", "matches the float32 input"),
    )


def _autocast_back(ctx: Context, odd: Tensor, want: str | None, root: Span) -> list[FixSpec]:
    """A float16/bfloat16 result of an op inside `torch.autocast` that meets float32 outside it:
    `.float()` where autocast made it (`raw = model(images).float()`), so every use outside the
    block gets float32, as if the op had run without autocast; the op itself still runs in low
    precision."""
    made = odd.origin.span if odd.origin is not None and "autocast" in odd.origin.why else None
    if not odd.autocast or odd.dtype not in ("float16", "bfloat16") or want != "float32" or made is None or made != root or not single_tensor_at(ctx, made):
        return []
    return [FixSpec("append_call", "Convert the autocast result back where it is made: `.float()` (its uses outside autocast get float32)", made, True, (("method", "float"),))]



def _refused(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """An operation torch refuses for this tensor's dtype (rules/refused.py)."""
    for r in refused.refusals_for(ctx, "DG004", seen):
        yield RULE.finding(
            f"this tensor is {r.operand.dtype}, and {refused.words(r.key)} at {r.span.line_ref()} refuses it: "
            f"it fails with \"{r.error.split(': ', 1)[-1]}\" ({r.advice})",
            r.root,
            related=r.related,
            fixes=_inverted_mask(ctx, r.span) if r.key == "sub" and r.operand.dtype == "bool" and r.root == r.span else r.fixes,
        )


def _inverted_mask(ctx: Context, span: Span) -> list[FixSpec]:
    """`1 - mask` of a bool mask -> `~mask` (DeNA's YOLOv3 #42, set 60): the same 0/1 values,
    as bool, which promote wherever `1 - mask` was used as a number."""
    found = expression_at(ctx, span)
    if found is None:
        return []
    text, node = found
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.left, ast.Constant) and node.left.value == 1 and type(node.left.value) is int):
        return []
    right = node.right
    inverted = f"~{ast.unparse(right)}" if isinstance(right, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) else f"~({ast.unparse(right)})"
    return [FixSpec("replace_expression", f"Invert the mask: `{inverted}`", span, True, (("old", text), ("value", inverted)))]

RULE = Rule(
    code="DG004",
    name="input-dtype-mismatch",
    severity=Severity.ERROR,
    summary="floating input dtype differs from the model's parameter dtype",
    explanation=(
        "NumPy creates float64 arrays by default, and `torch.from_numpy` / `torch.tensor(ndarray)` "
        "keep float64, while `nn.Linear`/`nn.Conv2d` weights are float32. The matmul inside the "
        "layer does not promote dtypes, so the forward pass fails (\"mat1 and mat2 must have the "
        "same dtype, but got Double and Float\"; convolutions say \"Input type (double) and bias "
        "type (float) should be the same\"; RNNs raise a ValueError). The same happens the other "
        "way round (a `.double()` or `.half()` model fed float32). Elementwise ops promote silently, "
        "so the float64 spreads until it reaches a layer that refuses it. Convert once where the "
        "data enters PyTorch: `.float()`, `dtype=torch.float32`, or `.astype(np.float32)`."
    ),
    hazards=("H06", "H07", "H12", "H20", "H23"),
    reported_at=(
        'the root cause: where the input became a torch tensor of the wrong dtype (`torch.from_numpy(x)`, '
        "`torch.tensor(a)`) or was cast (`.double()`, `.astype(...)`), or the model's cast when the model is "
        'the odd one out; related information at the forward call that fails (float64 data into float32 '
        'model, float32 into `.half()`/`.double()` model, uint8 images into conv); likewise a mask that is not bool '
        "(`masked_select`, `masked_fill`, a Transformer's padding mask) where it got its dtype, and a bool tensor used as "
        'a number (`argmax`, `1 - mask` at the call)'
    ),
    errors=(
        ErrorPattern(
            r"\"(?:cholesky|lu|linalg_svd|geqrf|linalg_eigh)_cpu\" not implemented for '(?:Half|BFloat16)'|linalg\.\w+: Low precision dtypes not supported",
            "\"cholesky_cpu\" not implemented for 'Half'",
            "tests/realworld50/broken/as06_cheetah_particle_beam_float16_multivariate_normal_cholesky.py",
            hint="half-precision linear algebra has no CPU kernel: compute it in float32 (`.float()`), and convert back after.",
        ),
        ErrorPattern(
            r"expected BoolTensor for mask|only supports boolean masks, but got mask with dtype",
            "masked_select: expected BoolTensor for mask",
            "tests/realworld51/broken/at05_bert4torch_crf_ner_long_attention_mask_masked_select.py",
            hint="a mask that is not bool: make it one (`mask.bool()`, or a comparison).",
        ),
        ErrorPattern(
            r"Subtraction, the `-` operator, with (?:a bool tensor|two bool tensors) is not supported|Negation, the `-` operator, on a bool tensor",
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            "tests/realworld51/broken/at04_tts_tacotron_attention_one_minus_bool_mask.py",
            hint="arithmetic on a bool mask: invert it with `~mask` or `mask.logical_not()`.",
        ),
        ErrorPattern(
            r"(?:argmax|argmin)\(\): does not support bool input",
            "argmax(): does not support bool input",
            "tests/realworld51/broken/at06_mvpose_cross_view_matching_argmax_bool_row.py",
            hint="argmax of a bool tensor: convert it first (`.int()` or `.float()`).",
        ),
        ErrorPattern(
            r"only bool and floating types of \w*key_padding_mask are supported",
            "only bool and floating types of key_padding_mask are supported",
            "tests/realworld51/broken/at01_bttr_beam_search_long_image_mask_key_padding.py",
            error_types=("AssertionError",),
            hint="an integer padding mask: make it bool (`mask.bool()`, or `ids == pad_id`).",
        ),
        ErrorPattern(
            r"must have the same dtype, but got \w+ and \w+",
            "mat1 and mat2 must have the same dtype, but got Double and Float",
            "hazards.md H06",
            general=True,
        ),
        ErrorPattern(
            r"expected m1 and m2 to have the same dtype",
            "expected m1 and m2 to have the same dtype, but got: double != float",
            "hazards.md H06",
            general=True,
        ),
        ErrorPattern(
            r"Input type \([^)]*\) and bias type \([^)]*\) should be the same",
            "Input type (double) and bias type (float) should be the same",
            "hazards.md H07",
            general=True,
        ),
        ErrorPattern(
            r"expected scalar type \w+ but found \w+",
            "expected scalar type Double but found Float",
            "hazards.md H07",
            general=True,
        ),
        ErrorPattern(
            r"Input type \(torch\.[\w.]+\) and weight type \(torch\.[\w.]+\) should be the same",
            (
                "Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) "
                "should be the same"
            ),
            "tests/realworld/broken/b20_ucr_loadtxt_float64_conv1d.py",
            general=True,
        ),
        ErrorPattern(
            r"mixed dtype \(CPU\)",
            "mixed dtype (CPU): all inputs must share same datatype.",
            "hazards.md H12",
            general=True,
        ),
        ErrorPattern(
            r"RNN input dtype \(\S+\) does not match weight dtype",
            (
                "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). "
                "Convert input: input.to(torch.float32), or convert model: "
                "model.to(torch.float64)"
            ),
            "hazards.md H12",
            error_types=("ValueError",),
            general=True,
        ),
        ErrorPattern(
            r"prelu: Type promoting not supported",
            "prelu: Type promoting not supported. Got Double and Float",
            "hazards.md H12",
            general=True,
        ),
        ErrorPattern(
            r"dot : expected both vectors to have same dtype",
            "dot : expected both vectors to have same dtype, but found Float and Double",
            "hazards.md H12",
            general=True,
        ),
    ),
    hint=(
        "the input's floating dtype differs from the layer's parameters (NumPy arrays are "
        "float64, nn layers float32) and layers do not promote; convert the input with .float() "
        "(or x.to(next(model.parameters()).dtype)) where the data enters PyTorch."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            'import numpy as np\nimport torch\nfrom torch import nn\nimages = np.random.randint(0, 256, size=(4, 3, 8, 8), dtype=np.uint8)\nx = torch.from_numpy(images)  # <-\nnn.Conv2d(3, 4, 3)(x)\n',
            'import torch\ngain = torch.ones(7)\ngij = (torch.rand(5, 2) * 8).long()\ngi, gj = gij.T\nidx = gj.clamp_(0, gain[3] - 1)  # <-\n',
            "import pandas as pd\nimport torch\nfrom torch import nn\ndf = pd.read_csv('train.csv')\nX = torch.tensor(df[['age', 'income']].values)  # <-\nmodel = nn.Linear(2, 1)\nmodel(X)\n",
            "import torch\nimport numpy as np\nclass Net(torch.nn.Module):\n    def __init__(self, sizes):\n        super().__init__()\n        self.linears = torch.nn.ModuleList()\n        for i in range(1, len(sizes)):\n            self.linears.append(torch.nn.Linear(sizes[i - 1], sizes[i]))\n    def forward(self, x):\n        for linear in self.linears[:-1]:\n            x = torch.tanh(linear(x))\n        return self.linears[-1](x)\nnet = Net([2, 8, 1])\nlayers = net.linears\nfirst = layers[0]\nx = torch.from_numpy(np.random.rand(4, 2))  # <-\nnet(x)\n",
            "import numpy as np\nimport torch\nX = torch.from_numpy(np.random.normal(0, 1, (100, 2)))  # <-\nw = torch.normal(0, 0.01, (2, 1), requires_grad=True)\ny_hat = torch.mm(X, w)\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nx = torch.from_numpy(np.random.rand(8, 3))  # <-\nmodel = nn.Linear(3, 1)\ny = model(x)\n",
            "import numpy as onp\nimport torch as T\nfrom torch import nn\nfrom torch.utils.data import DataLoader, TensorDataset\n\ndef make_data():\n    X = onp.random.randn(64, 10)\n    y = onp.random.randn(64, 1)\n    return T.tensor(X), T.tensor(y)  # <-\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(10, 1)\n\n    def forward(self, x):\n        return self.fc(x)\n\ndef train():\n    X, y = make_data()\n    loader = DataLoader(TensorDataset(X, y), batch_size=8, shuffle=True)\n    net = Net()\n    for xb, yb in loader:\n        out = net(xb)\n\nif __name__ == '__main__':\n    train()\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1).double()  # <-\nx = torch.randn(4, 3)\nmodel(x)\n",
            "import torch\nimport torch.nn as nn\nconv = nn.Conv2d(3, 8, 3)\nimg = torch.zeros(1, 3, 32, 32, dtype=torch.uint8)  # <-\nconv(img)\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nlstm = nn.LSTM(4, 8, 2, batch_first=True)\nx = torch.randn(3, 5, 4)\nh0 = torch.tensor(np.random.randn(2, 3, 8))  # <-\nc0 = torch.zeros(2, 3, 8)\nout, _ = lstm(x, (h0, c0))\n",
            "import torch\nimport torch.nn as nn\ngru = nn.GRU(4, 8).double()  # <-\nx = torch.randn(5, 3, 4, dtype=torch.float64)\nout, h = gru(x, torch.zeros(1, 3, 8))\n",
            # pandas 2's `get_dummies` makes bool columns: beside a float column, `.values` is an object array
            "import numpy as np\nimport pandas as pd\nimport torch\ndf = pd.read_csv('titanic.csv')\ndf['LogFare'] = np.log(df['Fare'] + 1)\ndf = pd.get_dummies(df, columns=['Sex'])\n"
            "X = torch.tensor(df[['LogFare', 'Sex_male']].values, dtype=torch.float)  # <-\n",
            "import torch\ntoken_ids = torch.randint(0, 5, (2, 7))\nmask = token_ids.gt(0).long()  # <-\nscores = torch.randn(2, 7)\npicked = scores.masked_select(mask)\n",
            "import torch\ngt = torch.rand(100) > 0.5\npredict = torch.rand(100) > 0.5\nintersection = (gt + predict) == 2  # <-\n",
            "import numpy as np\nimport torch\nmasks = torch.from_numpy(np.random.rand(3, 900) > 0.5).to(torch.uint8)\ninter = torch.matmul(masks, masks.T)  # <-\n",
            "import torch\nimport torch.nn as nn\nenc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 1)\nseq = torch.randint(0, 5, (2, 6))\npad = (seq == 0).float()  # <-\nenc(torch.randn(2, 6, 8), src_key_padding_mask=pad)\n",
        ],
        good=[
            "import numpy as np\nimport torch\nimport torch.nn as nn\nlstm = nn.LSTM(4, 8, 2, batch_first=True)\nx = torch.randn(3, 5, 4)\nh0 = torch.tensor(np.random.randn(2, 3, 8), dtype=torch.float32)\nc0 = torch.zeros(2, 3, 8)\nout, _ = lstm(x, (h0, c0))\n",
            "import torch\nimport torch.nn as nn\ngru = nn.GRU(4, 8).double()\nx = torch.randn(5, 3, 4, dtype=torch.float64)\nout, h = gru(x, torch.zeros(1, 3, 8, dtype=torch.float64))\n",
            'import torch\ngain = torch.ones(7)\ngij = (torch.rand(5, 2) * 8).long()\ngi, gj = gij.T\nidx = gj.clamp_(0, int(gain[3]) - 1)\n',
            "import numpy as np\nimport pandas as pd\nimport torch\nfrom torch import nn\ndf = pd.read_csv('train.csv')\nX = torch.tensor(df[['age', 'income']].values.astype(np.float32))\nmodel = nn.Linear(2, 1)\nmodel(X)\nY = torch.tensor(df['label'].values)\nnn.CrossEntropyLoss()(nn.Linear(2, 3)(X), Y)\n",
            "import torch\nimport numpy as np\nclass Net(torch.nn.Module):\n    def __init__(self, sizes):\n        super().__init__()\n        self.linears = torch.nn.ModuleList()\n        for i in range(1, len(sizes)):\n            self.linears.append(torch.nn.Linear(sizes[i - 1], sizes[i]))\n    def forward(self, x):\n        for linear in self.linears[:-1]:\n            x = torch.tanh(linear(x))\n        return self.linears[-1](x)\nnet = Net([2, 8, 1])\nlayers = net.linears\nfirst = layers[0]\nx = torch.from_numpy(np.random.rand(4, 2)).float()\nnet(x)\n",
            "import numpy as np\nimport torch\nX = torch.from_numpy(np.random.normal(0, 1, (100, 2))).float()\nw = torch.normal(0, 0.01, (2, 1), requires_grad=True)\ny_hat = torch.mm(X, w) + X @ w\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nx = torch.from_numpy(np.random.rand(8, 3)).float()\nmodel = nn.Linear(3, 1)\ny = model(x)\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nx = torch.tensor(np.random.rand(8, 3), dtype=torch.float32)\nmodel = nn.Linear(3, 1)\ny = model(x)\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nx = torch.from_numpy(np.random.rand(8, 3).astype(np.float32))\nnn.Linear(3, 1)(x)\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1).double()\nmodel(torch.from_numpy(np.random.rand(8, 3)))\n",
            "import torch\nimport torch.nn as nn\ntorch.set_default_dtype(torch.float64)\nmodel = nn.Linear(3, 1)\nmodel(torch.randn(2, 3))\n",
            "import numpy as np\nimport torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 1)\n    def forward(self, x):\n        return self.fc(x.float())\nNet()(torch.from_numpy(np.random.rand(4, 3)))\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nwith torch.autocast('cpu', dtype=torch.bfloat16):\n    model(torch.randn(2, 3).double())\n",
            "import numpy as np\nimport pandas as pd\nimport torch\ndf = pd.read_csv('titanic.csv')\ndf['LogFare'] = np.log(df['Fare'] + 1)\ndf = pd.get_dummies(df, columns=['Sex'])\n"
            "X = torch.tensor(df[['LogFare', 'Sex_male']].to_numpy(dtype=np.float32))\nS = torch.tensor(df[['Sex_male', 'Sex_female']].values)\n",
            "import torch\ngt = torch.rand(100) > 0.5\npredict = torch.rand(100) > 0.5\nintersection = (gt.int() + predict.int()) == 2\nunion = (gt + predict) >= 1\n",
            "import numpy as np\nimport torch\nmasks = torch.from_numpy(np.random.rand(3, 900) > 0.5).to(torch.uint8)\ninter = torch.matmul(masks.float(), masks.float().T)\n",
            "import torch\nimport torch.nn as nn\nenc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 1)\nseq = torch.randint(0, 5, (2, 6))\npad = seq == 0\nenc(torch.randn(2, 6, 8), src_key_padding_mask=pad)\n",
        ],
    ),
)


def _bool_sums(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`(gt + predict) == 2` of two bool masks (SO-Net #37): `+` of bool tensors (or NumPy bool
    arrays) is a logical OR and gives bool, so the count it was meant to be never reaches 2, and
    the IoU built on it is silently 0. The fix goes on the sum: count in integers."""
    for op in ctx.events.ops:
        if op.name != BOOL_SUM or not op.arg_spans or op.arg_spans[0] in seen:
            continue
        root = op.arg_spans[0]
        seen.add(root)
        fixes = []
        parts = _plain_sum(ctx, root)
        if parts is not None:
            fixes.append(FixSpec(
                "replace_expression", "Count in integers: `.int()` on each mask before adding", root, True,
                (("old", parts[0]), ("value", " + ".join(f"{p}.int()" for p in parts[1]))),
            ))
        yield RULE.finding(
            f"these masks are bool, and `+` of bool tensors is a logical OR that stays bool (True, never 2): the comparison at "
            f"{op.span.line_ref()} is never true, silently; convert them to integers before adding (`.int()`)",
            root,
            related=[Related(op.span, "never true: the sum of bool masks is 0 or 1 (bool)")],
            fixes=fixes,
        )


def _plain_sum(ctx: Context, span: Span) -> tuple[str, list[str]] | None:
    """The text of `a + b` at `span` and its operands, when each is a plain name or attribute
    (so `a.int() + b.int()` is the same sum in integers)."""
    found = expression_at(ctx, span)
    if found is None:
        return None
    text, node = found
    operands: list[ast.expr] = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        operands.insert(0, node.right)
        node = node.left
    operands.insert(0, node)
    if len(operands) < 2 or not all(isinstance(o, (ast.Name, ast.Attribute)) for o in operands):
        return None
    return text, [ast.unparse(o) for o in operands]


_WRAPPING = {"uint8": 255, "int8": 127}  # the largest sum a product of these dtypes holds before it wraps


def _wrapping_product(op: TensorOp, a: Tensor, b: Tensor) -> Finding:
    """`torch.matmul(mask1, mask2.T)` of uint8 masks (ultralytics #15782): torch multiplies and
    sums in the operands' dtype, so every sum above 255 wraps around, silently (an IoU of
    identical masks far below 1). The fix goes on the product: compute it in float32."""
    dtype = a.dtype or ""
    related = [Related(t.origin.span, f"it is {dtype} here: {t.origin.why}") for t in (a, b) if t.origin is not None][:1]
    return RULE.finding(
        f"`{op.name}` at {op.span.line_ref()} multiplies two {dtype} tensors and sums in {dtype}: every sum above "
        f"{_WRAPPING[dtype]} wraps around, silently (no error); convert both operands first (`.float()`)",
        op.span,
        related=related,
        severity=Severity.WARNING,
    )


def _float_masks(ctx: Context, seen: set[Span]) -> Iterator[Finding]:
    """`src_key_padding_mask=(seq == PAD).float()` (SASRec on torch #147209): a float padding mask
    is added to the attention scores, so 1.0 at the padded positions masks nothing and the
    padding changes every output, silently. The fix goes on the cast: keep the mask bool."""
    for op in ctx.events.ops:
        if op.name != FLOAT_MASK or not op.arg_spans or op.arg_spans[0] in seen:
            continue
        root = op.arg_spans[0]
        seen.add(root)
        fixes = []
        found = expression_at(ctx, root)
        if found is not None:
            text, call = found
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
                fixes.append(FixSpec(
                    "replace_expression", "Keep the padding mask bool (drop the cast)", root, False,
                    (("old", text), ("value", ast.unparse(call.func.value))),
                ))
        yield RULE.finding(
            f"this padding mask is cast to float: in training a float `key_padding_mask` is added to the attention scores at "
            f"{op.span.line_ref()}, so its 1.0 at the padded positions masks nothing and the padding changes the output, "
            "silently (the eval-mode fast path reads it as a bool mask, so training and evaluation disagree); keep it bool "
            "(True where padded)",
            root,
            related=[Related(op.span, "the float mask is added to the attention scores here in training, not used to mask")],
            fixes=fixes,
            severity=Severity.WARNING,
        )
