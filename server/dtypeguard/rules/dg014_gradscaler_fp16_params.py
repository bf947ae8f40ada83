"""DG014: GradScaler with float16 parameters (H22): `scaler.step` refuses FP16 gradients."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.model import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule


def check(ctx: Context) -> Iterator[Finding]:
    seen = set()
    for step in ctx.events.steps:
        if not step.scaler or step.module is None or step.module.dtype != "float16" or step.opt.origin in seen:
            continue
        seen.add(step.opt.origin)  # the first unscale raises; later calls on it never run
        related = [Related(step.module.dtype_origin.span, "the parameters become float16 here")] if step.module.dtype_origin else []
        yield RULE.finding(
            "GradScaler with float16 parameters: the step fails with \"Attempting to unscale FP16 gradients.\"",
            step.span,
            related=related,
            note="Do not call `.half()` on the model; keep float32 parameters and run the forward under `torch.autocast(..., dtype=torch.float16)`.",
        )


RULE = Rule(
    code="DG014",
    name="gradscaler-fp16-params",
    severity=Severity.ERROR,
    summary="GradScaler with float16 parameters",
    explanation=(
        "GradScaler expects float32 master parameters; with `model.half()` the gradients are fp16 "
        "and `scaler.step` (inside `unscale_`) raises \"Attempting to unscale FP16 gradients.\" Do "
        "not call `.half()` on the model; use `torch.autocast` for fp16 compute and keep the "
        "parameters in float32."
    ),
    hazards=("H22",),
    check=check,
    examples=RuleExamples(
        bad=["import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)  # <-\n"],
        good=["import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)\n"],
    ),
)
