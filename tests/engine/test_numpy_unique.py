"""The engine's `np.unique` results (the unique values and each index, inverse or count array
asked for) compared with what NumPy really returns: class weights are computed from them."""

from __future__ import annotations

import numpy as np
import pytest

from dtypeguard.analysis.check import check_source

CALLS = [
    "np.unique(y)",
    "np.unique(y, return_counts=True)",
    "np.unique(y, return_index=True, return_inverse=True)",
    "np.unique(y, True, True, True)",
    "np.unique(z, return_counts=True)",
]


def _engine_dtypes(call: str, count: int) -> list[str | None]:
    names = ", ".join(f"p{i}" for i in range(count))
    text = f"import numpy as np\ny = np.arange(6, dtype=np.int32) % 3\nz = np.linspace(0, 1, 5)\n{names} = {call}\n"
    facts = check_source(text).facts
    assert facts is not None
    found: list[str | None] = []
    for i in range(count):
        stored = [v.value for v in facts.values if v.store and v.name == f"p{i}"]
        found.append(getattr(stored[-1], "dtype", None) if stored else None)
    return found


@pytest.mark.parametrize("call", CALLS)
def test_unique_parts_are_numpys(call: str) -> None:
    real = eval(call, {"np": np, "y": np.arange(6, dtype=np.int32) % 3, "z": np.linspace(0, 1, 5)})
    parts = real if isinstance(real, tuple) else (real,)
    assert _engine_dtypes(call, len(parts)) == [str(p.dtype) for p in parts]


def test_unknown_flag_is_unknown() -> None:
    assert _engine_dtypes("np.unique(y, return_counts=len(y) > 2)", 2) == [None, None]
