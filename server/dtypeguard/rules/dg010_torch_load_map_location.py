"""DG010: `torch.load` without `map_location` in code that also runs on CPU (H18)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.findings import Finding, FixSpec, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule


def check(ctx: Context) -> Iterator[Finding]:
    ev = ctx.events
    if not ev.uses_cuda_check:
        return  # a script that never asks for CUDA gives no evidence it runs on both
    device = ctx.device_name() or "'cpu'"
    saved = {s.path for s in ev.saves if s.path}
    from_gpu = {s.path for s in ev.saves if s.path and s.device in ("cuda", "auto")}
    for load in ev.loads:
        if "map_location" in load.keywords or load.splat:
            continue  # given, or perhaps given through `**kwargs`
        if load.path in saved and load.path not in from_gpu:
            continue  # this script writes that file itself, and not from GPU tensors that we know of
        yield RULE.finding(
            "`torch.load` without `map_location` in a script that also runs on CPU: a checkpoint saved "
            "on a GPU fails to load on a CPU-only machine (\"Attempting to deserialize object on a CUDA device\")",
            load.span,
            fixes=[FixSpec("add_kwarg", f"Add `map_location={device}`", load.span, True, (("name", "map_location"), ("value", device)))],
        )


RULE = Rule(
    code="DG010",
    name="torch-load-without-map-location",
    severity=Severity.WARNING,
    summary="torch.load without map_location in code that also runs on CPU",
    explanation=(
        "Checkpoints remember the device each tensor was saved from. On a machine without CUDA, "
        "loading a GPU checkpoint fails with \"Attempting to deserialize object on a CUDA device but "
        "torch.cuda.is_available() is False\". Load with `map_location='cpu'` (or "
        "`map_location=device`), then move the model. Reported only in scripts that check "
        "`torch.cuda.is_available()`, i.e. that are meant to run on both."
    ),
    hazards=("H18",),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nstate = torch.load('model.pt')  # <-\n",
        ],
        good=[
            "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ndef load(path, device={'cuda:0': 'cpu'}):\n    return torch.load(path, device)\n",
            "import os\nimport tempfile\nimport torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ncache = os.path.join(tempfile.gettempdir(), 'vectors.pt')\nif os.path.isfile(cache):\n    vectors = torch.load(cache)\nelse:\n    vectors = torch.zeros(10, 4, device='cpu')\n    torch.save(vectors, cache)\n",
            "import torch\ndef load_checkpoint(path, **kwargs):\n    return torch.load(path, **kwargs)\nif torch.cuda.is_available():\n    state = load_checkpoint('ckpt.pt', map_location='cuda')\n",
            "import torch\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nstate = torch.load('model.pt', map_location=device)\n",
            "import torch\nstate = torch.load('model.pt')\n",
        ],
    ),
)
