"""DG013: optimizers over bfloat16 parameters: small updates round away (H14)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.findings import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule
from dtypeguard.rules.dg012_adam_fp16_eps import param_dtype_at_step


def check(ctx: Context) -> Iterator[Finding]:
    seen = set()
    for i, new in enumerate(ctx.events.optimizers):
        dtype, module = param_dtype_at_step(ctx, i)
        if dtype != "bfloat16" or new.span in seen:
            continue
        seen.add(new.span)
        cast_later = module is not None and module.dtype_origin is not None and (new.module is None or new.module.dtype != "bfloat16")
        if cast_later and module is not None and module.dtype_origin is not None:
            # the optimizer was made over float32 weights; the cast after it is what to undo
            root, related = module.dtype_origin.span, [Related(new.span, f"{new.opt.cls} steps these parameters (created here before the cast)")]
        elif module is not None and module.cast_span is not None:
            # `model.to(torch.bfloat16)`: the cast is what to undo (keep float32 weights, autocast)
            root, related = module.cast_span, [Related(new.span, f"{new.opt.cls} steps these bfloat16 parameters")]
        else:
            root = new.span
            related = [Related(module.dtype_origin.span, "the parameters become bfloat16 here")] if module and module.dtype_origin else []
        yield RULE.finding(
            f"{new.opt.cls} updates bfloat16 parameters: bfloat16 keeps 8 bits of mantissa, so steps of "
            "about lr=1e-3 on weights near 1.0 round away and training silently stalls",
            root,
            related=related,
            note="Keep optimizer-owned weights in float32 and use `torch.autocast(..., dtype=torch.bfloat16)` for the compute.",
        )


RULE = Rule(
    code="DG013",
    name="adam-bf16-stalled-updates",
    severity=Severity.WARNING,
    summary="optimizer over bfloat16 parameters: updates round away",
    explanation=(
        "bfloat16 keeps only 8 bits of mantissa (spacing 2^-7 at 1.0), so an Adam step of about "
        "lr=1e-3 on a weight near 1.0 is below half the bf16 spacing and rounds away. Parameters "
        "never change and no error is raised (also with `fused=True`). Keep optimizer-owned weights "
        "in float32 and use autocast for bf16 compute."
    ),
    hazards=("H14",),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).to(torch.bfloat16)  # <-\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n",
            "import torch\nfrom torch import nn\ntorch.set_default_dtype(torch.bfloat16)\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)  # <-\n",
        ],
        good=["import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\nwith torch.autocast('cpu', dtype=torch.bfloat16):\n    out = model(torch.randn(2, 4))\n"],
    ),
)
