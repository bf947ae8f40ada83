"""DG016: optimizer flags that cannot work together or on this device (H15)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.values import Const, Value
from dtypeguard.findings import Finding, FixSpec, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule


def _true(value: Value | None) -> bool:
    return isinstance(value, Const) and value.value is True


def check(ctx: Context) -> Iterator[Finding]:
    for new in ctx.events.optimizers:
        opts = new.opt.options
        if _true(opts.get("fused")) and _true(opts.get("foreach")):
            yield RULE.finding(
                f"{new.opt.cls}(fused=True, foreach=True) raises \"`fused` and `foreach` cannot be `True` together.\"",
                new.span,
                fixes=[FixSpec("remove_kwarg", "Remove `foreach=True` (fused already batches the update)", new.span, True, (("name", "foreach"),))],
            )
        if _true(opts.get("fused")) and _true(opts.get("differentiable")):
            yield RULE.finding(f"{new.opt.cls}(fused=True, differentiable=True) raises \"`fused` does not support `differentiable`\"", new.span)
        if _true(opts.get("capturable")) and new.module is not None and new.module.device == "cpu":
            yield RULE.finding(
                f"{new.opt.cls}(capturable=True) with CPU parameters fails at the first `step()`: capturable is for CUDA graphs",
                new.span,
                fixes=[FixSpec("remove_kwarg", "Remove `capturable=True`", new.span, True, (("name", "capturable"),))],
            )


RULE = Rule(
    code="DG016",
    name="optimizer-flag-conflict",
    severity=Severity.ERROR,
    summary="fused/foreach/capturable/differentiable flags that cannot work",
    explanation=(
        "`fused=True` works on CPU in current PyTorch for floating parameters and cannot be combined "
        "with `foreach=True` or `differentiable=True` (both raise at construction). "
        "`capturable=True` is for CUDA graphs (cuda/xpu/hpu/xla) and fails on CPU at the first "
        "`step()` with \"If capturable=True, params and state_steps must be on supported devices\"."
    ),
    hazards=("H15",),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), fused=True, foreach=True)  # <-\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.AdamW(model.parameters(), capturable=True)  # <-\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), fused=True)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).cuda()\nopt = torch.optim.AdamW(model.parameters(), capturable=True)\n",
        ],
    ),
)
