"""Silent hazards read off the first step: the run succeeded, but training is already broken.

fp16 Adam (H13 -> DG012) turns parameters into inf/NaN at the first step without raising, and
bf16 parameters (H14 -> DG013) do not move because the update rounds away. Neither raises, so
only the step report shows them; these checks turn it into warnings that name the rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dtypeguard.verify.explain import HINTS
from dtypeguard.verify.result import VerifyWarning

ADAM_FAMILY = frozenset({"Adam", "AdamW", "Adamax", "NAdam", "RAdam", "SparseAdam"})
FP16_SMALLEST = 5.96e-8  # smallest positive float16 (subnormal); a smaller eps rounds to 0
# Outside low precision, warn about unchanged elements only when they are a large share:
# a few tiny gradients times a small lr legitimately round away in float32 too.
STALLED_SHARE_FLOAT32 = 0.10


def _int(value: object) -> int:
    return int(value) if isinstance(value, (int, float)) else 0


def _dtypes(step: Mapping[str, Any], key: str) -> set[str]:
    value = step.get(key) or {}
    return set(value) if isinstance(value, Mapping) else set()


def step_warnings(step: Mapping[str, Any] | None, loss: Mapping[str, Any] | None) -> list[VerifyWarning]:
    if not step or "param_count" not in step:
        return []
    warnings: list[VerifyWarning] = []
    optimizer = str(step.get("optimizer", "optimizer"))
    at = step.get("line") if isinstance(step.get("line"), int) else None  # the script's step() call
    options = step.get("options") or {}
    param_dtypes = _dtypes(step, "param_dtypes")
    n_params = _int(step.get("param_count"))

    nonfinite = _int(step.get("nonfinite_params"))
    if nonfinite:
        eps = options.get("eps")
        fused = bool(options.get("fused"))
        text = (
            f"{nonfinite} of {n_params} parameter tensors contain inf/NaN right after the first "
            f"{optimizer}.step()"
        )
        if "float16" in param_dtypes and optimizer in ADAM_FAMILY and not fused:
            eps_text = f"eps={eps:g}" if isinstance(eps, (int, float)) else "its eps"
            underflow = isinstance(eps, (int, float)) and eps < FP16_SMALLEST
            cause = (
                f"; the parameters are float16 and {eps_text} "
                + ("rounds to 0 in float16, " if underflow else "")
                + "so tiny squared gradients give m/(sqrt(v)+eps) = inf/NaN"
            )
            warnings.append(VerifyWarning("nonfinite", "DG012", text + cause, HINTS["DG012"], at))
        else:
            hint = None
            if loss is not None and loss.get("finite") is False:
                hint = "the loss was already non-finite; check the inputs and the learning rate"
            warnings.append(VerifyWarning("nonfinite", None, text, hint, at))

    if loss is not None and loss.get("finite") is False and not nonfinite:
        warnings.append(
            VerifyWarning(
                "nonfinite-loss",
                None,
                f"the loss passed to backward() was inf/NaN ({loss.get('dtype')}) before the first step",
                None,
                at,
            )
        )

    grad_elements = _int(step.get("grad_elements"))
    stalled = _int(step.get("stalled_elements"))
    stalled_params = _int(step.get("params_stalled"))
    with_grad = _int(step.get("params_with_grad"))
    if stalled and grad_elements:
        share = stalled / grad_elements
        low = _dtypes(step, "stalled_dtypes")
        text = (
            f"{stalled} of {grad_elements} parameter elements with a non-zero gradient did not "
            f"change in the first {optimizer}.step() ({share:.0%}"
            + (f"; {stalled_params} of {with_grad} tensors did not change at all" if stalled_params else "")
            + ")"
        )
        if "bfloat16" in low:
            warnings.append(
                VerifyWarning(
                    "stalled",
                    "DG013",
                    text + "; the parameters are bfloat16, whose 8-bit mantissa rounds "
                    "lr-sized updates away",
                    HINTS["DG013"],
                    at,
                )
            )
        elif "float16" in low or stalled_params or share >= STALLED_SHARE_FLOAT32:
            warnings.append(
                VerifyWarning(
                    "stalled",
                    None,
                    text + "; the update is smaller than the parameters' rounding step "
                    "(learning rate too small, or low-precision parameters)",
                    None,
                    at,
                )
            )
    return warnings
