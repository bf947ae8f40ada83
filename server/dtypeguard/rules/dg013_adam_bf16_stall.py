"""DG013: optimizers over bfloat16 parameters: small updates round away (H14)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from dtypeguard.engine.values import Const, Value
from dtypeguard.findings import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule
from dtypeguard.rules.dg012_adam_fp16_eps import param_dtype_at_step, tensors_at_step
from dtypeguard.rules.master_weights import master_weights_fix


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
            tensor_origin = tensors_at_step(ctx, new)[1] if module is None else None
            if tensor_origin is not None:
                related = [Related(tensor_origin.span, f"the optimized tensor is bfloat16 here: {tensor_origin.why}")]
        yield RULE.finding(
            f"{new.opt.cls} updates bfloat16 parameters: bfloat16 keeps 8 bits of mantissa: "
            f"{_rounds_away(new.opt.cls, new.opt.options)}",
            root,
            related=related,
            fixes=[fix] if (fix := master_weights_fix(ctx, module)) else [],
            note="Keep optimizer-owned weights in float32 and use `torch.autocast(..., dtype=torch.bfloat16)` for the compute.",
        )


# torch.optim's default lr of the Adam family (tests/engine/test_rule_numbers.py reads them
# from the installed torch): their steps are about lr whatever the gradient's scale.
ADAM_DEFAULT_LR = {"Adam": 1e-3, "AdamW": 1e-3, "NAdam": 2e-3, "RAdam": 1e-3, "Adamax": 2e-3, "SparseAdam": 1e-3}


def _rounds_away(cls: str, options: dict[str, Value | None]) -> str:
    """Which weights an Adam-style step of size ~lr no longer changes: a bfloat16 weight in
    [2^e, 2^(e+1)) is spaced 2^(e-7) apart, so a step below half of that (2^(e-8)) rounds back.
    Other optimizers' steps scale with the gradient, and an lr the analysis cannot read is not
    guessed: both get the general rule."""
    default = ADAM_DEFAULT_LR.get(cls)
    lr = options.get("lr") if "lr" in options else (Const(default) if default is not None else None)
    if default is None:
        lr = None
    if not (isinstance(lr, Const) and isinstance(lr.value, (int, float)) and not isinstance(lr.value, bool) and lr.value > 0):
        return "a step smaller than about 1/256 of a weight rounds away and training silently stalls"
    above = 2.0 ** (math.floor(math.log2(lr.value)) + 9)
    words = f"steps of about lr={lr.value:g} round away on weights of magnitude {above:g} and above"
    if above <= 1:
        return words + ", so training silently stalls"
    return words + " (and on smaller ones as the learning rate decays)"


# the part of the explanation that the hover over an optimizer's creation repeats
_FACTS = {
    "stall": "an Adam step of about lr=1e-3 on a weight near 1.0 is below half the bf16 spacing and rounds away",
}

RULE = Rule(
    code="DG013",
    name="adam-bf16-stalled-updates",
    severity=Severity.WARNING,
    summary="optimizer over bfloat16 parameters: updates round away",
    explanation=(
        f"bfloat16 keeps only 8 bits of mantissa (spacing 2^-7 at 1.0), so {_FACTS['stall']}. Parameters "
        "never change and no error is raised (also with `fused=True`). Keep optimizer-owned weights "
        "in float32 and use autocast for bf16 compute."
    ),
    facts=_FACTS,
    hazards=("H14",),
    reported_at=(
        'the cast that makes the optimized parameters bfloat16 (`model.to(torch.bfloat16)`, the place to keep '
        'float32 weights), with related information at the optimizer; the optimizer construction (Adam/AdamW or '
        'any other) when that cast is not known'
    ),
    hint=(
        "bfloat16 keeps 8 mantissa bits, so lr-sized updates to weights near 1.0 round away and "
        "training silently stalls; keep float32 parameters and use "
        "torch.autocast(dtype=torch.bfloat16) for the compute."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).to(torch.bfloat16)  # <-\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n",
            "import torch\nfrom torch import nn\ntorch.set_default_dtype(torch.bfloat16)\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)  # <-\n",
        ],
        good=["import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\nwith torch.autocast('cpu', dtype=torch.bfloat16):\n    out = model(torch.randn(2, 4))\n"],
    ),
)
