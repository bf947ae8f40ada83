"""DG009: the model and its input live on different devices (H24)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.model import Finding, FixSpec, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule, tensor


def _mismatch(model: str | None, data: str | None) -> bool:
    if model is None or data is None or model == data:
        return False
    return {model, data} in ({"cuda", "cpu"}, {"auto", "cpu"})


def check(ctx: Context) -> Iterator[Finding]:
    for fw in ctx.events.forwards:
        module = fw.module
        if fw.nested or not fw.inputs or module.dtype is None:
            continue
        x = tensor(fw.inputs[0])
        if x is None or not _mismatch(module.device, x.device):
            continue
        maybe = "auto" in (module.device, x.device)
        where_model = "on the GPU when CUDA is available" if module.device == "auto" else f"on {module.device}"
        where_data = "on the GPU when CUDA is available" if x.device == "auto" else f"on {x.device}"
        message = (
            f"the model is {where_model} but this input stays {where_data}: the forward pass fails with "
            "\"Expected all tensors to be on the same device\""
        )
        related = []
        if module.device_origin is not None:
            related.append(Related(module.device_origin.span, f"the model's device: {module.device_origin.why}"))
        if x.dev_origin is not None:
            related.append(Related(x.dev_origin.span, f"the input's device: {x.dev_origin.why}"))
        fixes = []
        device_expr = module.device_expr if module.device in ("cuda", "auto") else '"cpu"'
        use = fw.arg_spans[0] if fw.arg_spans else None
        if device_expr and use is not None:
            fixes.append(FixSpec("to_device", f"Move the input to the model's device: `.to({device_expr})`", use, True, (("device", device_expr),)))
        yield RULE.finding(message, fw.span, related=related, fixes=fixes, severity=Severity.WARNING if maybe else Severity.ERROR)
    yield from _loss_targets(ctx)


def _loss_targets(ctx: Context) -> Iterator[Finding]:
    """The model's output is on its device; a target left on the CPU fails in the loss."""
    for loss in ctx.events.losses:
        out, target = tensor(loss.output), tensor(loss.target)
        if out is None or target is None or not _mismatch(out.device, target.device):
            continue
        maybe = "auto" in (out.device, target.device)
        where_out = "on the GPU when CUDA is available" if out.device == "auto" else f"on {out.device}"
        where_target = "on the GPU when CUDA is available" if target.device == "auto" else f"on {target.device}"
        related = [Related(target.dev_origin.span, f"the target's device: {target.dev_origin.why}")] if target.dev_origin else []
        fixes = []
        device_expr = _device_expr_of(ctx, out)
        if device_expr and loss.target_span is not None:
            fixes.append(FixSpec("to_device", f"Move the target to the predictions' device: `.to({device_expr})`", loss.target_span, True, (("device", device_expr),)))
        yield RULE.finding(
            f"the predictions are {where_out} but the target stays {where_target}: {loss.name} fails with "
            "\"Expected all tensors to be on the same device\"",
            loss.span,
            related=related,
            fixes=fixes,
            severity=Severity.WARNING if maybe else Severity.ERROR,
        )


def _device_expr_of(ctx: Context, out: object) -> str:
    """How the file names the device the model was moved to (from the forward events)."""
    for fw in ctx.events.forwards:
        if fw.module.device_expr and fw.module.device in ("cuda", "auto"):
            return fw.module.device_expr
    return ""


RULE = Rule(
    code="DG009",
    name="device-mismatch",
    severity=Severity.ERROR,
    summary="model and input on different devices",
    explanation=(
        "Every tensor in one op must be on the same device; a CUDA model fed CPU batches (or the "
        "reverse) fails in the forward pass with \"Expected all tensors to be on the same device, "
        "but found at least two devices, cuda:0 and cpu!\". `torch.from_numpy`, DataLoader batches "
        "and the legacy `torch.Tensor(...)` are always on the CPU, whatever the default device. Move "
        "each batch and target with `.to(device)` matching the model's parameters. When the device "
        "is chosen at run time (`cuda if torch.cuda.is_available() else cpu`) this is reported as a "
        "warning: the script works on a CPU-only machine and fails on a GPU one."
    ),
    hazards=("H24", "H03"),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(3, 1).to(device)\nx = torch.randn(4, 3)\nmodel(x)  # <-\n",
            "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(3, 1).to(device)\nx = torch.randn(4, 3, device=device)\ny = torch.randn(4, 1)\nloss = F.mse_loss(model(x), y)  # <-\n",
            "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader, TensorDataset\nmodel = nn.Linear(3, 1)\nmodel.cuda()\nloader = DataLoader(TensorDataset(torch.randn(8, 3), torch.randn(8, 1)), batch_size=4)\nfor xb, yb in loader:\n    pred = model(xb)  # <-\n",
            "import torch\nimport torch.nn as nn\ndef to_gpu(m):\n    if torch.cuda.is_available():\n        return m.cuda()\n    return m\nmodel = to_gpu(nn.Linear(3, 1))\nmodel(torch.randn(4, 3))  # <-\n",
        ],
        good=[
            "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(3, 1).to(device)\nx = torch.randn(4, 3).to(device)\nmodel(x)\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nmodel(torch.randn(4, 3))\n",
            "import torch\nimport torch.nn as nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = nn.Linear(3, 1).to(device)\nmodel(torch.randn(4, 3, device=device))\n",
            "import torch\nimport torch.nn as nn\ndef build(debug):\n    m = nn.Linear(3, 1)\n    if debug:\n        return m\n    return m\nmodel = build(False)\nmodel(torch.randn(4, 3))\n",
        ],
    ),
)
