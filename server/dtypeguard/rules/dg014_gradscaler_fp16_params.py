"""DG014: GradScaler with float16 parameters (H22): `scaler.step` refuses FP16 gradients."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.findings import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, ErrorPattern, Rule, fails_here
from dtypeguard.rules.dg012_adam_fp16_eps import tensors_at_step
from dtypeguard.rules.master_weights import master_weights_fix, part_fix


def check(ctx: Context) -> Iterator[Finding]:
    seen: set[object] = set()
    yield from _tensor_groups(ctx, seen)
    for step in ctx.events.steps:
        if not step.scaler or step.module is None or step.opt.origin in seen:
            continue
        if step.module.dtype != "float16" and step.module.half_part is None:
            continue  # any float16 parameter is enough: its gradient is float16 too
        seen.add(step.opt.origin)  # the first unscale raises; later calls on it never run
        error = _ERROR
        cast = step.module.cast_span or (step.module.dtype_origin.span if step.module.dtype_origin else None)
        if step.module.dtype != "float16":
            cast = step.module.half_part
        root = cast or step.span
        related = fails_here(root, step.span, error)
        if step.module.dtype == "float16" and step.module.dtype_origin is not None and step.module.dtype_origin.span != root:
            related.append(Related(step.module.dtype_origin.span, "the parameters become float16 here"))
        whole = step.module.dtype == "float16"
        yield RULE.finding(
            _message(step.span.line, cast is not None),
            root,
            related=related,
            fixes=[fix] if (fix := master_weights_fix(ctx, step.module) if whole else part_fix(ctx, root)) else [],
            note="Do not call `.half()` on the model; keep float32 parameters and run the forward under `torch.autocast(..., dtype=torch.float16)`."
            if whole else "Create this parameter as float32 (autocast runs its ops in float16 where that is safe); GradScaler needs float32 parameters.",
        )


_ERROR = "Attempting to unscale FP16 gradients."


def _message(step_line: int, at_cast: bool) -> str:
    if at_cast:
        return f"the parameters become float16 here, but a GradScaler steps their optimizer: `scaler` at line {step_line} fails with \"{_ERROR}\""
    return f"GradScaler with float16 parameters: the step fails with \"{_ERROR}\""


def _tensor_groups(ctx: Context, seen: set[object]) -> Iterator[Finding]:
    """An optimizer over parameter groups (nanoGPT's `configure_optimizers`: decay and no-decay
    lists from `named_parameters()`) whose tensors are all float16: the same refusal, rooted at
    where they became float16 (`model.to(device, dtype=ptdtype)`)."""
    made = {new.opt.origin: new for new in ctx.events.optimizers}
    for step in ctx.events.steps:
        new = made.get(step.opt.origin)
        if not step.scaler or step.module is not None or step.opt.origin in seen or new is None:
            continue
        dtype, origin = tensors_at_step(ctx, new)
        if dtype != "float16":
            continue
        seen.add(step.opt.origin)
        root = origin.span if origin is not None else step.span
        yield RULE.finding(
            _message(step.span.line, root != step.span),
            root,
            related=[*fails_here(root, step.span, _ERROR), Related(new.span, "the optimizer over them is made here")],
            note="Keep float32 parameters and run the forward under `torch.autocast(..., dtype=torch.float16)`; GradScaler needs float32 parameters.",
        )


# the part of the explanation that the hover over `GradScaler` repeats
_FACTS = {
    "fp16_grads": "GradScaler expects float32 master parameters; with `model.half()` the gradients "
    "are fp16 and `scaler.step` (inside `unscale_`) raises \"Attempting to unscale FP16 gradients.\"",
}

RULE = Rule(
    code="DG014",
    name="gradscaler-fp16-params",
    severity=Severity.ERROR,
    summary="GradScaler with float16 parameters",
    explanation=(
        f"{_FACTS['fp16_grads']} Do "
        "not call `.half()` on the model; use `torch.autocast` for fp16 compute and keep the "
        "parameters in float32."
    ),
    facts=_FACTS,
    hazards=("H22",),
    reported_at=(
        'the `.half()` that makes the parameters float16 (related information at the `scaler.step`/`unscale_` '
        'that fails); the step itself when the cast is not known'
    ),
    errors=(
        ErrorPattern(
            r"Attempting to unscale FP16 gradients",
            "Attempting to unscale FP16 gradients.",
            "hazards.md H22",
        ),
    ),
    hint=(
        "GradScaler needs float32 master parameters; do not .half() the model, use "
        "torch.autocast(..., dtype=torch.float16) for the forward."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()  # <-\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)\n",
            "import torch\nfrom torch import nn\nclass Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 8)\n        self.weight = nn.Parameter(torch.HalfTensor(3, 8))  # <-\n"
            "model = Head().to('cpu')\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)\n",
            "import torch\nfrom torch import nn\nclass Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 8)\n        self.register_buffer('table', torch.zeros(3, 8, dtype=torch.float16))\n"
            "model = Head().to('cpu')\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)\n",
        ],
    ),
)
