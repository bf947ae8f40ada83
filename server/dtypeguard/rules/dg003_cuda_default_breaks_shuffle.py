"""DG003: a global CUDA default device with `DataLoader(shuffle=True)` (H02).

`RandomSampler` makes a CPU `torch.Generator()` but `torch.randperm` follows the CUDA default,
so iterating the loader fails before the first forward.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def check(ctx: Context) -> Iterator[Finding]:
    for loader in ctx.events.loaders:
        default = loader.default_device
        if default.value not in ("cuda", "auto") or loader.generator_device in ("cuda", default.value):
            continue
        if loader.has_generator and loader.generator_device is None:
            continue  # a generator we cannot read: unknown stays unknown
        when = "" if default.value == "cuda" else " when CUDA is available"
        related = [Related(default.span, f"CUDA made the default device here ({default.call})")] if default.span else []
        yield RULE.finding(
            f"the default device is CUDA{when}, so this shuffling loader fails when iterated: "
            "\"Expected a 'cuda' device type for generator but found 'cpu'\"",
            loader.span,
            related=related,
            fixes=[
                FixSpec(
                    "add_kwarg",
                    "Pass `generator=torch.Generator(device='cuda')`",
                    loader.span,
                    True,
                    (("name", "generator"), ("value", "torch.Generator(device='cuda')" if default.value == "cuda" else "torch.Generator(device=torch.get_default_device())")),
                ),
                *_explicit_device_fix(default.span),
            ],
        )


def _explicit_device_fix(span: Span | None) -> list[FixSpec]:
    """The H02/H03 remedy: no global CUDA default, an explicit `device` instead (unsafe: on a
    GPU machine the model and data stay on the CPU until they are moved with `.to(device)`)."""
    if span is None:
        return []
    title = "Replace the global CUDA default with an explicit `device` (things stay on the CPU until moved with `.to(device)`)"
    return [FixSpec("replace_cuda_default", title, span, False, (("dtype", "float32"), ("cuda", "1")))]


RULE = Rule(
    code="DG003",
    name="cuda-default-breaks-shuffle",
    severity=Severity.ERROR,
    summary="a global CUDA default device breaks DataLoader(shuffle=True)",
    explanation=(
        "A global CUDA default tensor type/device makes `RandomSampler`'s `torch.randperm` allocate "
        "on CUDA while its `torch.Generator()` stays on the CPU, so `DataLoader(shuffle=True)` fails "
        "with \"Expected a 'cuda' device type for generator but found 'cpu'\". Keep the default on "
        "the CPU and move tensors explicitly with `.to(device)`, or pass "
        "`generator=torch.Generator(device='cuda')`."
    ),
    hazards=("H02", "H03"),
    errors=(
        ErrorPattern(
            r"Expected a 'cuda' device type for generator but found 'cpu'",
            "Expected a 'cuda' device type for generator but found 'cpu'",
            "hazards.md H02",
        ),
    ),
    hint=(
        "a global CUDA default device makes RandomSampler's randperm allocate on CUDA while its "
        "torch.Generator() stays on the CPU; keep the default on the CPU and move batches with "
        ".to(device), or pass generator=torch.Generator(device='cuda')."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ntorch.set_default_device('cuda')\nds = TensorDataset(torch.randn(8, 3))\nloader = DataLoader(ds, batch_size=4, shuffle=True)  # <-\n",
            "import torch\nfrom torch.utils.data import DataLoader\nif torch.cuda.is_available():\n    torch.set_default_tensor_type('torch.cuda.FloatTensor')\nloader = DataLoader(list(range(10)), shuffle=True)  # <-\n",
        ],
        good=[
            "import torch\nfrom torch.utils.data import DataLoader\ntorch.set_default_device('cuda')\nloader = DataLoader(list(range(10)), shuffle=True, generator=torch.Generator(device='cuda'))\n",
            "import torch\nfrom torch.utils.data import DataLoader\nloader = DataLoader(list(range(10)), shuffle=True)\n",
            "import torch\nfrom torch.utils.data import DataLoader\ntorch.set_default_device('cuda')\nloader = DataLoader(list(range(10)), shuffle=False)\n",
        ],
    ),
)
