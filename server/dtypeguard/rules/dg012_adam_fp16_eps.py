"""DG012: Adam/AdamW over float16 parameters with the default eps (H13).

eps=1e-8 rounds to 0 in float16 and the single-tensor/foreach math runs in float16, so one
step can turn weights into inf/NaN, silently.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.events import OptimizerNew
from dtypeguard.engine.library import vocabulary as vocab
from dtypeguard.engine.values import Const, ModuleObj, Origin, Value
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, Rule
from dtypeguard.rules.master_weights import master_weights_fix


def param_dtype_at_step(ctx: Context, index: int) -> tuple[str | None, ModuleObj | None]:
    """The parameters' dtype when the optimizer first steps (or at construction if it never does)."""
    first_steps = ctx.memo("first_steps", lambda: _first_steps(ctx))
    new = ctx.events.optimizers[index]
    module = first_steps.get(new.opt.origin, new.module)
    if module is None:
        return tensors_at_step(ctx, new)[0], None  # `Adam([prompt])`: plain tensors, their dtype
    return module.dtype, module


def tensors_at_step(ctx: Context, new: OptimizerNew) -> tuple[str | None, Origin | None]:
    """The dtype of an optimizer's listed tensors at its first step, and where it comes from:
    as they were listed, unless their module was cast in between (`unet.to(dtype=weight_dtype)`
    after `lora_layers = [p for n, p in unet.named_parameters() if "lora" in n]`)."""
    for step in ctx.events.steps:
        if step.opt.origin == new.opt.origin:
            if step.listed is not None:
                return step.listed
            break
    return new.tensor_dtype, new.tensor_origin


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
        if opt.cls not in vocab.ADAM_FAMILY or new.span in seen:
            continue
        dtype, module = param_dtype_at_step(ctx, i)
        # a model of which a part was made float16 on its own (CLIP's `convert_weights`, which
        # casts the convolutions and linears but not the norms): that part's update is float16
        # (not where the file sets `requires_grad` anywhere: the float16 part is then often the
        # frozen one, and which parameters the optimizer updates is not followed that far)
        part = module.half_part if dtype is None and module is not None and module.mixed and "requires_grad" not in ctx.text else None
        if dtype != "float16" and part is None:
            continue
        eps = opt.options.get("eps")
        fused = opt.options.get("fused")
        if isinstance(fused, Const) and fused.value is True:
            continue
        if eps is not None and not (isinstance(eps, Const) and isinstance(eps.value, float) and eps.value < 6e-8):
            continue
        seen.add(new.span)
        related = [Related(module.dtype_origin.span, "the parameters become float16 here")] if module and module.dtype_origin else []
        tensor_origin = tensors_at_step(ctx, new)[1] if module is None else None
        if tensor_origin is not None:
            related = [Related(tensor_origin.span, f"the optimized tensor is float16 here: {tensor_origin.why}")]
        if part is not None:
            related = [Related(part, "some of the parameters become float16 here")]
        master = master_weights_fix(ctx, module) if part is None else None
        some = "parameters of which some are float16" if part is not None else "float16 parameters"
        yield RULE.finding(
            f"{opt.cls} over {some} with eps=1e-8: eps rounds to 0 in float16 and the update "
            "math runs in float16, so a step can silently turn weights into inf/NaN",
            new.span,
            related=related,
            fixes=[
                *([master] if master else []),
                *_fused_fix(ctx, new.span, opt.cls, opt.options),
                FixSpec("set_kwarg", "Use `eps=1e-4` (representable in float16; changes the optimizer's behaviour)", new.span, False, (("name", "eps"), ("value", "1e-4"))),
            ],
            note="Safest: keep the parameters in float32 and use `torch.autocast(..., dtype=torch.float16)` with a GradScaler.",
        )


_FUSED = frozenset({"Adam", "AdamW"})  # of the Adam family, the ones with a `fused=` implementation


def _fused_fix(ctx: Context, span: Span, cls: str, options: dict[str, Value | None]) -> list[FixSpec]:
    """`fused=True`: the same Adam update, computed in float32 inside one kernel and written back
    to the float16 parameters and state (their dtypes and memory unchanged). As written the step
    divides by an eps that is 0 in float16, so it is safe where it can be added plainly: Adam or
    AdamW, every keyword visible (no `**kwargs` that may carry `fused` or `foreach`), no
    `foreach=True`/`differentiable=True` it conflicts with, and no `fused=` written already. Else offered as unsafe (NAdam & co.
    have no `fused=`: not offered)."""
    if cls not in _FUSED:
        return []
    call = ctx.snippet(span) if span.line == span.end_line else "\n".join(ctx.index.line_text(n) for n in range(span.line, span.end_line + 1))
    conflicts = any(isinstance(options.get(k), Const) and options[k].value is True for k in ("foreach", "differentiable"))  # type: ignore[union-attr]
    safe = "**" not in call and not conflicts and "fused" not in options  # (`fused=False` written: the user's choice)
    title = ("Use `fused=True` (the same update computed in float32 and written back to the float16 parameters and state; "
             "needs PyTorch 2.4+ on the CPU)")
    return [FixSpec("set_kwarg", title, span, safe, (("name", "fused"), ("value", "True")))]


# the part of the explanation that the hover over an optimizer's creation repeats
_FACTS = {
    "eps": "`eps=1e-8` rounds to 0 and tiny squared gradients underflow, so "
    "`m/(sqrt(v)+eps)` divides by zero and weights become inf/NaN after a step, with no error",
}

RULE = Rule(
    code="DG012",
    name="adam-fp16-eps-underflow",
    severity=Severity.WARNING,
    summary="Adam over float16 parameters with the default eps goes inf/NaN",
    explanation=(
        "With float16 parameters, Adam keeps its state in float16 and (default implementation) does "
        f"its math in float16: {_FACTS['eps']}. "
        "Keeping the parameters in float32 under autocast is the sturdiest fix, but it doubles their "
        "memory and changes what is saved: unsafe, unless a GradScaler steps them (it needs float32 "
        "parameters). `fused=True` (Adam, AdamW) computes the same update in float32 and keeps the "
        "float16 storage: the safe fix. A larger eps (1e-4) stays representable but changes the "
        "optimizer: unsafe."
    ),
    facts=_FACTS,
    hazards=("H13",),
    reported_at='the Adam/AdamW construction over float16 parameters with the default eps (and no `fused=True`)',
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
            "import torch\nfrom torch import nn\nmodel = nn.Sequential(nn.LayerNorm(4), nn.Linear(4, 1))\nmodel[1].half()\nopt = torch.optim.Adam(model.parameters())  # <-\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Sequential(nn.LayerNorm(4), nn.Linear(4, 1))\nmodel[1].half().requires_grad_(False)\nopt = torch.optim.Adam(model.parameters())\n",
        ],
    ),
)
