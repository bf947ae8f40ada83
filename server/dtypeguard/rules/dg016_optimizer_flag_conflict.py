"""DG016: optimizer flags that cannot work together or on this device (H15)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.values import Const, Value
from dtypeguard.findings import Finding, FixSpec, RuleExamples, Severity
from dtypeguard.rules.base import Context, ErrorPattern, Rule


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
        in_group = _true(new.opt.group_options.get("capturable")) and not _true(opts.get("capturable"))
        if (_true(opts.get("capturable")) or in_group) and new.module is not None and new.module.device in ("cpu", "auto"):
            where = "a parameter group sets `capturable: True`" if in_group else f"{new.opt.cls}(capturable=True)"
            on = "with CPU parameters" if new.module.device == "cpu" else "on a machine without CUDA, where this script falls back to the CPU,"
            yield RULE.finding(
                f"{where}: {new.opt.cls}'s first `step()` {on} fails (\"If capturable=True, params and state_steps must be on "
                "supported devices\"): capturable is for CUDA graphs",
                new.span,
                # on a GPU, capturable may be what the script's CUDA graphs need: then removing it is a behaviour change
                fixes=[] if in_group else [FixSpec("remove_kwarg", "Remove `capturable=True`", new.span, new.module.device == "cpu", (("name", "capturable"),))],
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
    errors=(
        ErrorPattern(
            r"`fused` and `foreach` cannot be `True` together",
            "`fused` and `foreach` cannot be `True` together.",
            "hazards.md H15",
        ),
        ErrorPattern(
            r"`fused` does not support `differentiable`",
            "`fused` does not support `differentiable`",
            "hazards.md H15",
        ),
        ErrorPattern(
            r"If capturable=True, params and state_steps must be on supported devices",
            (
                "If capturable=True, params and state_steps must be on supported devices: "
                "['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']."
            ),
            "hazards.md H15",
        ),
        ErrorPattern(
            r"`fused=True` requires all the params to be floating point",
            (
                "`fused=True` requires all the params to be floating point Tensors of supported "
                "devices: ['mps', 'cuda', 'xpu', 'hpu', 'cpu', 'mtia', 'privateuseone'] but "
                "torch.int64 and cpu"
            ),
            "hazards.md H15",
        ),
    ),
    hint=(
        "fused=True cannot be combined with foreach=True or differentiable=True, and "
        "capturable=True is for CUDA graphs only (it fails on CPU parameters)."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), fused=True, foreach=True)  # <-\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.AdamW(model.parameters(), capturable=True)  # <-\n",
            "import torch\nfrom torch import nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1)).to(device)\n"
            "groups = [{'params': model[0].parameters(), 'capturable': True}, {'params': model[1].parameters(), 'lr': 1e-2}]\n"
            "opt = torch.optim.Adam(groups, lr=1e-3)  # <-\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters(), fused=True)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).cuda()\nopt = torch.optim.AdamW(model.parameters(), capturable=True)\n",
        ],
    ),
)
