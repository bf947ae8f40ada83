"""Hovers and inlay hints: what the engine knows at a position, in a few true sentences.

Every sentence here is either derived from the engine's facts for this file or a fact about
the call under the cursor (`engine/library/call_facts.py`, from the verified hazard catalog,
torch 2.13; where a rule states the fact, the rule's own words). When the engine knows nothing
at a position, we say nothing.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from dtypeguard.analysis import CheckResult
from dtypeguard.engine.events import Default, ValueFact
from dtypeguard.engine.library.call_facts import CALL_FACTS, OPTIMIZER_FACT, CallFact
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
from dtypeguard.rules import BY_CODE


@dataclass(frozen=True)
class InlayHint:
    line: int  # 1-based
    col: int  # 0-based code points: the hint goes here (end of the assigned name)
    label: str  # "float64 · cpu"
    tooltip: str = ""


_RULE_FACT = re.compile(r"\{(DG\d{3})\.(\w+)\}")


def call_fact_text(fact: CallFact) -> str:
    """A call's fact as the hover says it: the rules' facts it refers to in their own words, and
    the rules about the call named after it."""
    text = _RULE_FACT.sub(lambda m: BY_CODE[m.group(1)].facts[m.group(2)], fact.text)
    return f"{text} ({', '.join(fact.rules)})" if fact.rules else text


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
            sections.append(f"`{call}`: {call_fact_text(fact)}")
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
