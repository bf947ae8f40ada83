"""Hovers and inlay hints: what the engine knows at a position, in a few true sentences.

Every sentence here is either derived from the engine's facts for this file or copied from the
verified hazard catalog (torch 2.13). When the engine knows nothing at a position, we say
nothing.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from dtypeguard.analysis import CheckResult
from dtypeguard.engine.events import Default, ValueFact
from dtypeguard.engine.values import (
    Device,
    DType,
    ModuleObj,
    OptimizerObj,
    Params,
    Ref,
    Tensor,
    Value,
)
from dtypeguard.findings import Span


@dataclass(frozen=True)
class InlayHint:
    line: int  # 1-based
    col: int  # 0-based code points: the hint goes here (end of the assigned name)
    label: str  # "float64 · cpu"
    tooltip: str = ""


# What a call really does (hazards.md hover texts, torch 2.13), keyed by qualified name.
CALL_FACTS: dict[str, str] = {
    "torch.set_default_tensor_type": (
        "`torch.set_default_tensor_type` has been deprecated since PyTorch 2.1 and warns; use "
        "`torch.set_default_dtype` and `torch.set_default_device`. It changes only the dtype/device of "
        "*new* tensors that torch itself creates. It does not convert NumPy arrays (`torch.from_numpy`, "
        "`torch.tensor(ndarray)` keep float64), so it does not fix \"mat1 and mat2 must have the same "
        "dtype\" errors. (DG002)"
    ),
    "torch.set_default_dtype": (
        "`torch.set_default_dtype` affects only tensors and modules created after the call; existing "
        "parameters keep their dtype. Calling it between building the model and creating the data is a "
        "common source of Double/Float mismatches. (DG001)"
    ),
    "torch.set_default_device": (
        "`torch.set_default_device` only redirects torch factory calls (zeros, randn, tensor, ...) made in "
        "the current thread (and in fork-started DataLoader workers), and it adds per-call overhead to every "
        "torch function. `torch.from_numpy`, the legacy `torch.Tensor(...)` constructor, `torch.Generator()` "
        "and tensors built in other threads stay on the CPU, so data must still be moved with `.to(device)`. "
        "A CUDA default breaks `DataLoader(shuffle=True)`. (DG001, DG003)"
    ),
    "torch.from_numpy": (
        "`torch.from_numpy` shares the array's memory and keeps its dtype: NumPy's default float64 stays "
        "float64 whatever the default dtype, and the tensor is always on the CPU whatever the default "
        "device. Convert with `.float()` before a float32 model. (DG004)"
    ),
    "torch.tensor": (
        "Only Python floats and dtype-less torch factories follow `torch.get_default_dtype()`. NumPy arrays "
        "and NumPy scalars keep their own dtype (usually float64), and integer lists give int64. Pass "
        "`dtype=torch.float32` to be explicit."
    ),
    "torch.as_tensor": (
        "`torch.as_tensor` keeps a NumPy array's dtype (usually float64) and avoids a copy when it can. "
        "Pass `dtype=torch.float32` to convert where the data enters PyTorch."
    ),
    "torch.load": (
        "Checkpoints remember the device each tensor was saved from: on a machine without CUDA, pass "
        "`map_location='cpu'` (or `map_location=device`). Since PyTorch 2.6 `torch.load` defaults to "
        "`weights_only=True` and refuses pickled objects other than tensors and basic containers. (DG010, DG011)"
    ),
    "torch.utils.data.DataLoader": (
        "DataLoader batches are built on the CPU (NumPy arrays keep their dtype; Python floats become "
        "float64 tensors): move them with `.to(device)`. With a global CUDA default device, "
        "`shuffle=True` fails with \"Expected a 'cuda' device type for generator but found 'cpu'\". (DG003, DG009)"
    ),
    "torch.amp.GradScaler": (
        "GradScaler expects float32 master parameters; with `model.half()` the gradients are fp16 and "
        "`scaler.step` raises \"Attempting to unscale FP16 gradients.\" Use `torch.autocast` for fp16 "
        "compute instead. (DG014)"
    ),
    "torch.autocast": (
        "Autocast changes the dtype of op outputs, not of parameters, and only inside the `with` block. "
        "Tensors that leave the block in bf16/fp16 fail in float32 layers called outside it; computing the "
        "loss outside autocast is fine. (DG017)"
    ),
}
CALL_FACTS["torch.cuda.amp.GradScaler"] = CALL_FACTS["torch.amp.GradScaler"]
CALL_FACTS["torch.utils.data.dataloader.DataLoader"] = CALL_FACTS["torch.utils.data.DataLoader"]
OPTIMIZER_FACT = (
    "Creating the optimizer before `model.to()`/`.double()` is fine in current PyTorch (the Parameter "
    "objects are kept); converting the model *after* a `step()` is not (DG015). Over float16 parameters, "
    "Adam's default eps=1e-8 rounds to 0 (DG012); over bfloat16, small updates round away (DG013)."
)


def _default_line(kind: str, default: Default) -> str:
    value = default.value or "unknown here"
    if default.span is None:
        return f"**Default {kind} here:** {value} (PyTorch's default)"
    return f"**Default {kind} here:** {value}, set by `{default.call}` at line {default.span.line}"


def _defaults_at(result: CheckResult, line: int) -> tuple[Default, Default] | None:
    facts = result.facts
    if facts is None or not facts.defaults_at:
        return None
    lines = sorted(facts.defaults_at)
    i = bisect.bisect_right(lines, line) - 1
    if i < 0:
        return None
    return facts.defaults_at[lines[i]]


def _smallest(spans: list[tuple[Span, object]], line: int, col: int) -> object | None:
    best: tuple[int, object] | None = None
    for span, item in spans:
        if span.contains(line, col) and not (span.line == span.end_line and col == span.end_col):
            size = (span.end_line - span.line) * 10_000 + (span.end_col - span.col)
            if best is None or size < best[0]:
                best = (size, item)
    return best[1] if best else None


def _where(span: Span | None) -> str:
    return f" (line {span.line})" if span else ""


def describe(value: Value, obj: object) -> str | None:
    """One sentence about an abstract value, or None when there is nothing known to say."""
    if isinstance(value, Tensor):
        kind = {"tensor": "tensor", "ndarray": "NumPy array", "npscalar": "NumPy scalar"}.get(value.kind)
        if kind is None or (value.dtype is None and value.device is None):
            return None
        parts = [f"{kind}: **{value.dtype or 'dtype unknown'}**"]
        if value.kind == "tensor":
            parts.append(f"on **{_device_words(value.device)}**")
        text = " ".join(parts)
        if value.origin is not None:
            text += f". dtype: {value.origin.why}{_where(value.origin.span)}"
        if value.kind == "tensor" and value.dev_origin is not None:
            text += f". device: {value.dev_origin.why}{_where(value.dev_origin.span)}"
        return text + "."
    if isinstance(value, (Ref, Params)) and isinstance(obj, ModuleObj):
        name = obj.cls.removeprefix("torch.nn.").removeprefix("user:")
        if obj.loss:
            return f"loss module `{name}`"
        if obj.dtype is None and obj.device is None:
            return None
        text = f"module `{name}`: parameters **{obj.dtype or 'dtype unknown'}** on **{_device_words(obj.device)}**"
        if obj.dtype_origin is not None:
            text += f". dtype: {obj.dtype_origin.why}{_where(obj.dtype_origin.span)}"
        if obj.input_kind == "float":
            text += f". Expects floating input of the same dtype ({obj.dtype or 'unknown'})"
        elif obj.input_kind == "index":
            text += ". Expects integer (Long/Int) indices"
        return text + "."
    if isinstance(value, Ref) and isinstance(obj, OptimizerObj):
        state = "has stepped (it has state now)" if obj.stepped else "has not stepped yet"
        return f"optimizer `{obj.cls}` (created at line {obj.origin.span.line}); it {state}."
    if isinstance(value, Device):
        return f"device: **{_device_words(value.name)}**."
    if isinstance(value, DType):
        return f"dtype: **{value.name}**."
    return None


def _device_words(device: str | None) -> str:
    if device == "auto":
        return "cuda when available, else cpu"
    return device or "device unknown"


def hover_markdown(result: CheckResult, line: int, col: int) -> str | None:
    """Markdown for a hover at (1-based line, 0-based col), or None when we know nothing."""
    facts = result.facts
    if facts is None:
        return None
    sections: list[str] = []
    call = _smallest([(span, name) for span, name in facts.calls], line, col)
    if isinstance(call, str):
        fact = CALL_FACTS.get(call)
        if fact is None and call.startswith("torch.optim.") and call.rsplit(".", 1)[-1][:1].isupper():
            fact = OPTIMIZER_FACT
        if fact is not None:
            sections.append(f"`{call}`: {fact}")
    value_fact = _smallest([(v.span, v) for v in facts.values], line, col)
    if isinstance(value_fact, ValueFact):
        text = describe(value_fact.value, value_fact.obj)
        if text:
            sections.append(f"`{value_fact.name}` is a {text}")
    if not sections:
        return None
    defaults = _defaults_at(result, line)
    changed = [e for e in result.events.set_defaults if e.span.line <= line <= e.span.end_line] if result.events is not None else []
    if changed:
        # this line sets the default: what holds before it and what holds after it, both said
        event = changed[-1]
        sections.append(
            _change_line("dtype", event.prev_dtype, event.dtype) + "  \n" + _change_line("device", event.prev_device, event.device)
        )
    elif defaults is not None:
        sections.append(_default_line("dtype", defaults[0]) + "  \n" + _default_line("device", defaults[1]))
    return "\n\n".join(sections)


def _change_line(kind: str, before: Default, after: Default) -> str:
    if before.value == after.value:
        return _default_line(kind, after)
    return f"**Default {kind}:** {before.value or 'unknown'} before this line, **{after.value or 'unknown'} after it**"



def inlay_hints(result: CheckResult, first_line: int = 1, last_line: int = 10**9) -> list[InlayHint]:
    """`x = torch.from_numpy(arr)  ⟵ float64 · cpu`: one hint per tensor assignment target."""
    facts = result.facts
    if facts is None:
        return []
    hints: dict[tuple[int, int], InlayHint] = {}
    for fact in facts.values:
        if not fact.store or not isinstance(fact.value, Tensor) or fact.value.kind != "tensor":
            continue
        span = fact.span
        if not first_line <= span.line <= last_line or fact.value.dtype is None:
            continue
        label = fact.value.dtype + (f" · {_device_words(fact.value.device)}" if fact.value.device else "")
        key = (span.end_line, span.end_col)
        previous = hints.get(key)
        if previous is not None and previous.label != label:
            label = "varies"
        tooltip = fact.value.origin.why if fact.value.origin else ""
        hints[key] = InlayHint(span.end_line, span.end_col, label, tooltip)
    return [h for _, h in sorted(hints.items()) if h.label != "varies"]
