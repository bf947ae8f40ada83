"""The engine's knowledge of libraries, as data: one table module per library.

`function(name)` finds a library function by its qualified name (`numpy.stack`);
`method(kind, name)` a method of a value of that kind (an ndarray, a DataFrame, a Series).
"""

from __future__ import annotations

from dtypeguard.engine.library import numpy as _numpy
from dtypeguard.engine.library import pandas as _pandas
from dtypeguard.engine.library import scipy as _scipy
from dtypeguard.engine.library import torch as _torch
from dtypeguard.engine.library.spec import Entry

FUNCTIONS: dict[str, Entry] = {**_numpy.FUNCTIONS, **_numpy.GENERATOR, **_pandas.FUNCTIONS, **_scipy.FUNCTIONS, **_torch.FUNCTIONS}
METHODS: dict[str, Entry] = {**_numpy.METHODS, **_pandas.METHODS, **_pandas.WINDOW_METHODS, **_scipy.METHODS, **_torch.METHODS}
AUTOCAST_LOWERED = _torch.AUTOCAST_LOWERED
_KIND_PREFIX = {"ndarray": "ndarray", "frame": "DataFrame", "series": "Series", "window": "Window", "sparse": "sparse", "tensor": "Tensor"}


def function(name: str) -> Entry | None:
    return FUNCTIONS.get(name)


def method(kind: str, name: str) -> Entry | None:
    prefix = _KIND_PREFIX.get(kind)
    return METHODS.get(f"{prefix}.{name}") if prefix else None


def entries() -> list[Entry]:
    return [*FUNCTIONS.values(), *METHODS.values()]
