"""DG012: Adam/AdamW over float16 parameters with the default eps (H13).

eps=1e-8 rounds to 0 in float16 and the single-tensor/foreach math runs in float16, so one
step can turn weights into inf/NaN, silently.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine import api
from dtypeguard.engine.values import Const, ModuleObj
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule
from dtypeguard.rules.master_weights import master_weights_fix


def param_dtype_at_step(ctx: Context, index: int) -> tuple[str | None, ModuleObj | None]:
    """The parameters' dtype when the optimizer first steps (or at construction if it never does)."""
    first_steps = ctx.memo("first_steps", lambda: _first_steps(ctx))
    new = ctx.events.optimizers[index]
    module = first_steps.get(new.opt.origin, new.module)
    if module is None:
        return new.tensor_dtype, None  # `Adam([prompt])`: plain tensors, their dtype
    return module.dtype, module


def _first_steps(ctx: Context) -> dict[object, ModuleObj | None]:
    out: dict[object, ModuleObj | None] = {}
    for step in ctx.events.steps:
        if step.module is not None:
            out.setdefault(step.opt.origin, step.module)
    return out


def check(ctx: Context) -> Iterator[Finding]:
    seen = set()
    for i, new in enumerate(ctx.events.optimizers):
        opt = new.opt
        if opt.cls not in api.ADAM_FAMILY or new.span in seen:
            continue
        dtype, module = param_dtype_at_step(ctx, i)
        if dtype != "float16":
            continue
        eps = opt.options.get("eps")
        fused = opt.options.get("fused")
        if isinstance(fused, Const) and fused.value is True:
            continue
        if eps is not None and not (isinstance(eps, Const) and isinstance(eps.value, float) and eps.value < 6e-8):
            continue
        seen.add(new.span)
        related = [Related(module.dtype_origin.span, "the parameters become float16 here")] if module and module.dtype_origin else []
        if module is None and new.tensor_origin is not None:
            related = [Related(new.tensor_origin.span, f"the optimized tensor is float16 here: {new.tensor_origin.why}")]
        master = master_weights_fix(ctx, module)
        yield RULE.finding(
            f"{opt.cls} over float16 parameters with eps=1e-8: eps rounds to 0 in float16 and the update "
            "math runs in float16, so a step can silently turn weights into inf/NaN",
            new.span,
            related=related,
            fixes=[
                *([master] if master else []),
                FixSpec("set_kwarg", "Use `fused=True` (update math in float32; state stays float16)", new.span, False, (("name", "fused"), ("value", "True"))),
                FixSpec("set_kwarg", "Use `eps=1e-4` (representable in float16; changes the optimizer's behaviour)", new.span, False, (("name", "eps"), ("value", "1e-4"))),
            ],
            note="Safest: keep the parameters in float32 and use `torch.autocast(..., dtype=torch.float16)` with a GradScaler.",
        )


RULE = Rule(
    code="DG012",
    name="adam-fp16-eps-underflow",
    severity=Severity.WARNING,
    summary="Adam over float16 parameters with the default eps goes inf/NaN",
    explanation=(
        "With float16 parameters, Adam keeps its state in float16 and (default implementation) does "
        "its math in float16: `eps=1e-8` rounds to 0 and tiny squared gradients underflow, so "
        "`m/(sqrt(v)+eps)` divides by zero and weights become inf/NaN after a step, with no error. "
        "Keep parameters in float32 and use autocast (the safe fix); `fused=True` computes the "
        "update in float32, and a larger eps (1e-4) stays representable. Both change numerics and "
        "are offered as unsafe fixes."
    ),
    hazards=("H13",),
    hint=(
        "with float16 parameters Adam's eps=1e-8 rounds to 0 and small squared gradients "
        "underflow, so m/(sqrt(v)+eps) becomes inf/NaN; keep float32 parameters with "
        "torch.autocast, or use fused=True or eps=1e-4."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)  # <-\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.AdamW(model.parameters())  # <-\nmodel.half()\nopt.step()\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
        ],
    ),
)
