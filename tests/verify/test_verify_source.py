"""`run_verify(path, source=text)`: the text runs as if it were the file (the editor's unsaved
buffer, a fixed copy), from the scratch copy, with the file's folder around it; the file itself
and its folder are never written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dtypeguard.verify.runner import run_verify

pytest.importorskip("torch")

ON_DISK = """\
import torch
from torch import nn

model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.ones(4, 2)).sum()
loss.backward()
opt.step()
"""

# the buffer: reads a data file beside the script, then fails at line 5 (float64 into float32)
BUFFER = """\
import torch
from torch import nn
scale = float(open("scale.txt").read())
model = nn.Linear(2, 1)
loss = model(torch.ones(4, 2, dtype=torch.float64) * scale).sum()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss.backward()
opt.step()
"""


def test_source_runs_instead_of_the_file(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(ON_DISK, encoding="utf-8")
    (tmp_path / "scale.txt").write_text("2.0", encoding="utf-8")
    before = sorted(os.listdir(tmp_path))

    from_disk = run_verify(str(script), device="cpu", timeout=120.0)
    assert from_disk.status == "ok", from_disk.summary()

    buffer = run_verify(str(script), device="cpu", timeout=120.0, source=BUFFER)
    assert buffer.status == "error", buffer.summary()
    assert buffer.line == 5 and buffer.rule == "DG004", buffer.summary()
    assert buffer.path is not None and os.path.realpath(buffer.path) == os.path.realpath(script)
    assert script.read_text(encoding="utf-8") == ON_DISK  # the file is never written
    assert sorted(os.listdir(tmp_path)) == before

    fixed = run_verify(str(script), device="cpu", timeout=120.0, source=BUFFER.replace("torch.float64", "torch.float32"))
    assert fixed.status == "ok", fixed.summary()
    assert script.read_text(encoding="utf-8") == ON_DISK
