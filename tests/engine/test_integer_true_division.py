"""The engine's claim that an integer tensor's true division (or product with a Python float)
has the default dtype, compared with what torch 2.13 really gives under both float defaults."""

from __future__ import annotations

import pytest
import torch

from dtypeguard.analysis.check import check_source

EXPRESSIONS = ["torch.arange(6) / 4", "torch.arange(6) / n", "torch.arange(6) * 0.5", "torch.arange(6, dtype=torch.int32) / torch.arange(1, 7)", "torch.arange(6) // 4"]


def _engine_dtype(default: str, expr: str) -> str | None:
    text = f"import torch\ntorch.set_default_dtype(torch.{default})\nn = len([1, 2])\ny = {expr}\n"
    facts = check_source(text).facts
    assert facts is not None
    stored = [v.value for v in facts.values if v.store and v.name == "y"]
    assert stored, text
    return getattr(stored[-1], "dtype", None)


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_integer_division_dtype_is_torchs(default: str, expr: str) -> None:
    before = torch.get_default_dtype()
    torch.set_default_dtype(getattr(torch, default))
    try:
        real = str(eval(expr, {"torch": torch, "n": 2}).dtype).removeprefix("torch.")
    finally:
        torch.set_default_dtype(before)
    assert _engine_dtype(default, expr) == real
