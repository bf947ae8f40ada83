"""`torch.meshgrid` / `torch.broadcast_tensors` as the engine reads them, against real torch: one
output per input, each of its input's dtype (and for meshgrid the rank is the input count)."""

from __future__ import annotations

import pytest
import torch

from dtypeguard.analysis import check_source
from dtypeguard.engine.values import Tensor

CASES = [
    ("meshgrid", ("float32", "float32")),
    ("meshgrid", ("float64", "float64", "float64")),
    ("broadcast_tensors", ("float32", "int64")),
    ("broadcast_tensors", ("float16", "float64")),
]


@pytest.mark.parametrize(("fn", "dtypes"), CASES)
def test_each_output_has_the_dtype_torch_gives_it(fn: str, dtypes: tuple[str, ...]) -> None:
    inputs = [torch.zeros(3, dtype=getattr(torch, d)) for d in dtypes]
    real = getattr(torch, fn)(*inputs, **({"indexing": "ij"} if fn == "meshgrid" else {}))
    names = [f"o{i}" for i in range(len(dtypes))]
    made = ", ".join(f"torch.zeros(3, dtype=torch.{d})" for d in dtypes)
    indexing = ", indexing='ij'" if fn == "meshgrid" else ""
    source = f"import torch\n{', '.join(names)} = torch.{fn}({made}{indexing})\n"
    result = check_source(source, "grids.py")
    seen = {v.name: v.value for v in result.facts.values if v.store and v.span.line == 2}
    for name, out in zip(names, real, strict=True):
        value = seen[name]
        assert isinstance(value, Tensor) and value.dtype == str(out.dtype).removeprefix("torch.")
        if fn == "meshgrid":
            assert value.ndim == out.ndim


def test_an_input_not_known_leaves_the_outputs_unknown() -> None:
    result = check_source("import torch\na, b = torch.meshgrid(torch.zeros(3), xs, indexing='ij')\n", "grids.py")
    assert not any(v.store and isinstance(v.value, Tensor) for v in result.facts.values if v.span.line == 2)
