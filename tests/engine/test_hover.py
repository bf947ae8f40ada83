"""Hovers say what the engine knows at a position, including the default state *at that line*."""

from __future__ import annotations

from dtypeguard.analysis import check_source
from dtypeguard.hover import hover_markdown, inlay_hints

SRC = """import numpy as np
import torch
import torch.nn as nn

X = np.random.rand(8, 3)
x = torch.from_numpy(X)
model = nn.Linear(3, 1)
torch.set_default_dtype(torch.float64)
y = model(x)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
"""


def test_hover_on_tensor_variable_names_dtype_device_and_origin() -> None:
    text = hover_markdown(check_source(SRC), 6, 0)
    assert text is not None
    assert "**float64**" in text and "**cpu**" in text
    assert "torch.from_numpy" in text
    assert "**Default dtype here:** float32 (PyTorch's default)" in text


def test_hover_reports_default_set_earlier_in_execution() -> None:
    text = hover_markdown(check_source(SRC), 9, 10)
    assert text is not None
    assert "float64, set by `torch.set_default_dtype` at line 8" in text


def test_hover_on_call_explains_what_it_does() -> None:
    text = hover_markdown(check_source(SRC), 6, 8)
    assert text is not None and "keeps its dtype" in text
    deprecated = hover_markdown(check_source("import torch\ntorch.set_default_tensor_type('torch.FloatTensor')\n"), 2, 8)
    assert deprecated is not None and "deprecated since PyTorch 2.1" in deprecated


def test_hover_on_module_shows_parameter_dtype() -> None:
    text = hover_markdown(check_source(SRC), 7, 1)
    assert text is not None and "parameters **float32** on **cpu**" in text


def test_no_hover_where_nothing_is_known() -> None:
    result = check_source("import os\nvalue = os.getcwd()\nprint(value)\n")
    assert hover_markdown(result, 2, 1) is None
    assert hover_markdown(check_source(SRC), 3, 0) is None


def test_inlay_hints_for_tensor_assignments() -> None:
    hints = inlay_hints(check_source(SRC))
    assert [(h.line, h.label) for h in hints] == [(6, "float64 · cpu")]  # line 9 raises: no value


def test_on_the_line_that_sets_the_default_the_hover_says_before_and_after() -> None:
    text = "import torch\nx = torch.randn(2)\ntorch.set_default_dtype(torch.float64)\ny = torch.randn(2)\n"
    result = check_source(text)
    md = hover_markdown(result, 3, 2)
    assert md is not None
    assert "float32 before this line, **float64 after it**" in md
    assert "Default dtype here:** float32" not in md
