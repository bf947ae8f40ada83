"""DG003: a global CUDA default device with `DataLoader(shuffle=True)` (H02).

`RandomSampler` makes a CPU `torch.Generator()` but `torch.randperm` follows the CUDA default,
so iterating the loader fails before the first forward.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.events import LoaderNew
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def check(ctx: Context) -> Iterator[Finding]:
    """Reported where the CUDA default is set (the fix: no global default, or a CUDA generator at
    each loader), each shuffling loader it breaks as related information; at the loader when
    where the default was set is not known."""
    broken: dict[Span | None, list[LoaderNew]] = {}
    for loader in ctx.events.loaders:
        default = loader.default_device
        if default.value not in ("cuda", "auto") or loader.generator_device in ("cuda", default.value):
            continue
        if loader.has_generator and loader.generator_device is None:
            continue  # a generator we cannot read: unknown stays unknown
        broken.setdefault(default.span, []).append(loader)
    error = "Expected a 'cuda' device type for generator but found 'cpu'"
    for setter, loaders in broken.items():
        default = loaders[0].default_device
        when = "" if default.value == "cuda" else " when CUDA is available"
        # (`torch.get_default_device()` follows `set_default_device` only: under
        # `set_default_tensor_type` it is the CPU, so the test is written out there)
        generator = (
            "torch.Generator(device='cuda')" if default.value == "cuda"
            else "torch.Generator(device='cuda' if torch.cuda.is_available() else 'cpu')" if "tensor_type" in (default.call or "")
            else "torch.Generator(device=torch.get_default_device())"
        )
        spans = list(dict.fromkeys(ld.span for ld in loaders))
        fixes = {
            span: FixSpec("add_kwarg", f"Pass `generator={generator}`" + (f" to the loader at {span.line_ref()}" if setter else ""),
                          span, True, (("name", "generator"), ("value", generator)))
            for span in spans
        }
        if setter is None:
            for span in spans:
                yield RULE.finding(f"the default device is CUDA{when}, so this shuffling loader fails when iterated: \"{error}\"", span, fixes=[fixes[span]])
            continue
        what = "this shuffling loader" if len(spans) == 1 else "these shuffling loaders"
        yield RULE.finding(
            f"CUDA becomes the default device here{when} ({default.call}), so the shuffling DataLoader at line "
            f"{', '.join(str(span.line) for span in spans)} fails when iterated: \"{error}\" (its sampler's CPU generator cannot "
            "make CUDA permutations)",
            setter,
            related=[Related(span, f"fails when iterated: {what} shuffles with a CPU generator") for span in spans],
            fixes=[*fixes.values(), *_explicit_device_fix(setter)],
        )


def _explicit_device_fix(span: Span | None) -> list[FixSpec]:
    """The H02/H03 remedy: no global CUDA default, an explicit `device` instead (unsafe: on a
    GPU machine the model and data stay on the CPU until they are moved with `.to(device)`)."""
    if span is None:
        return []
    title = "Replace the global CUDA default with an explicit `device` (things stay on the CPU until moved with `.to(device)`)"
    return [FixSpec("replace_cuda_default", title, span, False, (("dtype", "float32"), ("cuda", "1")))]


# the part of the explanation that the hovers over `set_default_device` and `DataLoader` repeat
_FACTS = {
    "shuffle": "`DataLoader(shuffle=True)` fails with \"Expected a 'cuda' device type for generator but found 'cpu'\"",
}

RULE = Rule(
    code="DG003",
    name="cuda-default-breaks-shuffle",
    severity=Severity.ERROR,
    summary="a global CUDA default device breaks DataLoader(shuffle=True)",
    explanation=(
        "A global CUDA default tensor type/device makes `RandomSampler`'s `torch.randperm` allocate "
        f"on CUDA while its `torch.Generator()` stays on the CPU, so {_FACTS['shuffle']}. Keep the default on "
        "the CPU and move tensors explicitly with `.to(device)`, or pass "
        "`generator=torch.Generator(device='cuda')`."
    ),
    facts=_FACTS,
    hazards=("H02", "H03"),
    reported_at=(
        'the `DataLoader(..., shuffle=True)` / `RandomSampler(...)` created under a CUDA default device '
        'without a CUDA generator'
    ),
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
            "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\ntorch.set_default_device('cuda')  # <-\nds = TensorDataset(torch.randn(8, 3))\nloader = DataLoader(ds, batch_size=4, shuffle=True)\n",
            "import torch\nfrom torch.utils.data import DataLoader\nif torch.cuda.is_available():\n    torch.set_default_tensor_type('torch.cuda.FloatTensor')  # <-\nloader = DataLoader(list(range(10)), shuffle=True)\n",
        ],
        good=[
            "import torch\nfrom torch.utils.data import DataLoader\ntorch.set_default_device('cuda')\nloader = DataLoader(list(range(10)), shuffle=True, generator=torch.Generator(device='cuda'))\n",
            "import torch\nfrom torch.utils.data import DataLoader\nloader = DataLoader(list(range(10)), shuffle=True)\n",
            "import torch\nfrom torch.utils.data import DataLoader\ntorch.set_default_device('cuda')\nloader = DataLoader(list(range(10)), shuffle=False)\n",
        ],
    ),
)
