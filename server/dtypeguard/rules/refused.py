"""Operations torch refuses for an operand's dtype (engine/library/refusals.py, generated from the
real torch): what DG004 and DG005 report for them, and where.

DG005 takes an integer or bool tensor given to an operation that only computes in floating point
(`accs.mean()` of int64 accuracies, `torch.randn_like(input_ids)`, `softmax` of counts); DG004 a
bool tensor used as a number (`argmax` of a bool row, `1 - mask`) and a mask or condition that is
not bool (`masked_select` with a long mask, a long `key_padding_mask`).

The root is where the operand got its dtype when that is in the checked file (the `.long()`,
`zeros_like(..., dtype=torch.long)`, `torch.tensor(accs)`), where the fix goes; for the
operations whose operand is rightly of its dtype and whose call is what changes (`randn_like`
of ids takes `dtype=`, a bool mask is inverted with `~`), the call itself. Related: the failing call.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dtypeguard.engine.call_effects import REFUSED_OP
from dtypeguard.engine.library import refusals
from dtypeguard.engine.values import Tensor, is_float
from dtypeguard.findings import FixSpec, Related, Span
from dtypeguard.rules.base import Context, fails_here, tensor

FLOAT_ONLY = frozenset({
    "mean", "std", "var", "quantile", "softmax", "log_softmax", "norm", "normalize", "randn_like", "rand_like",
    "normal_", "uniform_", "multinomial", "cdist",
    "cholesky", "inverse", "det", "slogdet", "logdet", "svd", "qr", "eigh", "solve", "MultivariateNormal", "Parameter",
    "requires_grad", "requires_grad_", "cross_entropy", "nll_loss",
})
AT_THE_CALL = frozenset({"randn_like", "rand_like", "normal_", "uniform_", "neg", "sub"})


@dataclass(frozen=True)
class Refusal:
    key: str
    operand: Tensor
    span: Span  # the call that fails
    error: str
    root: Span
    related: list[Related]
    advice: str
    fixes: list[FixSpec]


def refusals_for(ctx: Context, code: str, seen: set[Span]) -> Iterator[Refusal]:
    """The refused operations DG004 (`code` "DG004") or DG005 reports, one per root."""
    for op in ctx.events.ops:
        if not op.name.startswith(REFUSED_OP) or not op.inputs:
            continue
        key = op.name[len(REFUSED_OP):]
        t = tensor(op.inputs[0])
        if t is None or t.dtype is None:
            continue
        error = refusals.REFUSED.get(key, {}).get(t.dtype)
        if error is None:
            continue
        float_only = key in FLOAT_ONLY and not is_float(t.dtype)
        if (code == "DG005") != float_only:
            continue
        own = t.origin.span if t.origin is not None and not t.origin.span.file else None
        root = op.span if key in AT_THE_CALL or own is None else own
        if root in seen:
            continue
        seen.add(root)
        related = fails_here(root, op.span, error.split(": ", 1)[-1])
        if own is not None and own != root:
            related.append(Related(own, f"it is {t.dtype} here: {t.origin.why}"))  # type: ignore[union-attr]
        yield Refusal(key, t, op.span, error, root, related, _advice(key, t.dtype), _cast_fix(key, t.dtype, op.arg_spans[0] if op.arg_spans else None, _inferred(t)))


def _inferred(t: Tensor) -> bool:
    """Whether torch chose the integer dtype from Python numbers (`torch.full(size, 0)`,
    `torch.tensor([1, 2])`) rather than the script asking for it (`.long()`, `dtype=`)."""
    why = t.origin.why if t.origin is not None else ""
    return "int fill value" in why or why.startswith("Python ints make")


def _cast_fix(key: str, dtype: str, operand: Span | None, inferred: bool = False) -> list[FixSpec]:
    """The conversion at the refused operand (`mask.bool()`, `accs.float()`), where it is given
    to the operation. Safe where the script fails as written and the conversion keeps what the
    values mean: a 0/1 mask as bool, integer counts averaged in floating point, the index of the
    first True. A padding mask made bool is offered as unsafe: True marks what attention ignores,
    and an integer mask may mark the tokens to keep (1 for words, 0 for padding)."""
    if operand is None:
        return []
    role = refusals.ROLES[key]
    if role == "mask":
        return [FixSpec("append_call", "Make the mask bool: `.bool()`", operand, True, (("method", "bool"),))]
    if role == "padding":
        return [FixSpec("append_call", "Make the padding mask bool: `.bool()` (True marks the positions attention ignores: "
                        "check that nonzero marks padding here; if 1 marks the tokens to keep, use `== 0` instead)", operand, False, (("method", "bool"),))]
    if key in ("argmax", "argmin") and dtype == "bool":
        return [FixSpec("append_call", "Convert the bool tensor: `.int()` (the same index)", operand, True, (("method", "int"),))]
    if key in ("requires_grad", "requires_grad_"):
        return []  # (made integral on purpose, or by a fill value: which one, the user knows)
    if key == "Parameter" and not is_float(dtype):
        # a float parameter is right for a learned value made from an integer fill (skrl's log std:
        # the dtype torch inferred from `fill_value=0`, safe), not for a mask or an index table
        # kept in the module (NeuralBabyTalk's `.byte()` mask): those want `requires_grad=False` or
        # a buffer, so where the script chose the integer dtype the choice is the user's
        return [FixSpec("append_call", "Make the parameter floating point: `.float()` (if it holds a mask or indices, "
                        "pass `requires_grad=False` or register a buffer instead)", operand, inferred, (("method", "float"),))]
    if key in FLOAT_ONLY and not is_float(dtype) and key not in ("MultivariateNormal", *_CLASS_LOSSES):
        return [FixSpec("append_call", "Compute it in floating point: `.float()`", operand, True, (("method", "float"),))]
    return []


_CLASS_LOSSES = ("cross_entropy", "nll_loss")  # (their input: scores; a `.float()` of an integer cast would train on nothing)


def _advice(key: str, dtype: str) -> str:
    role = refusals.ROLES[key]
    if role == "padding":
        return "make it a bool mask (`mask.bool()`, or `ids == pad_id`)"
    if role == "mask":
        return "make the mask bool (`mask.bool()`, or a comparison)"
    if key in ("neg", "sub"):
        return "invert a bool mask with `~mask` or `mask.logical_not()`"
    if key in ("randn_like", "rand_like"):
        return "pass `dtype=torch.float` (or make it from a float tensor)"
    if key in FLOAT_ONLY and dtype in ("float16", "bfloat16"):
        return "compute it in float32 (`.float()`), and convert back after"
    if key in ("fft", "rfft"):
        return "compute it in float32 (`.float()`), and convert back after"
    if key in ("requires_grad", "requires_grad_"):
        return "only a floating tensor can require gradients: create it floating (`dtype=torch.float32`, or a float fill value)"
    if key in _CLASS_LOSSES:
        return "give the loss the model's floating-point scores (logits), not a cast of them: an integer cast drops the scores"
    if key == "Parameter":
        return "make a learned parameter floating point (`.float()`), or keep a mask or indices with `requires_grad=False` or as a buffer"
    if key in FLOAT_ONLY:
        return "give it a float tensor (`.float()`)"
    return f"convert the {dtype} tensor first (`.int()` or `.float()`)"


def words(key: str) -> str:
    """How the message names the operation."""
    role = refusals.ROLES[key]
    if role == "padding":
        return f"a Transformer's `{key}`"
    if role == "mask":
        return f"`{key}`'s mask" if key != "where" else "`torch.where`'s condition"
    if key == "neg":
        return "unary `-`"
    if key == "requires_grad":
        return "`requires_grad=True`"
    if key == "requires_grad_":
        return "`.requires_grad_()`"
    if key == "Parameter":
        return "`nn.Parameter` (which requires gradients)"
    if key == "sub":
        return "`-`"
    return f"`{key}`"
