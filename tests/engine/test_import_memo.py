"""The import memo (engine/import_memo.py): a folder check replays what an import did for an
earlier file instead of running it again, and the findings are exactly those of running it.

Each project here is written to tmp_path with imports whose effects reach the checked files: a
config module that sets the default dtype, a registry another module writes into, a float64
dataset and a double model built in other files. Every file is checked twice: alone (nothing
shared) and in a folder run (trees and the memo shared from file to file), in several orders."""

from __future__ import annotations

from pathlib import Path

from dtypeguard.analysis import check_source
from dtypeguard.engine.imports import shared_across_files, shared_memo
from dtypeguard.findings import Finding

CFG = """\
import torch

torch.set_default_dtype(torch.float64)
"""
REGISTRY = """\
_MODELS = {}


def register(fn):
    _MODELS[fn.__name__] = fn
    return fn


def create(name):
    return _MODELS[name]()
"""
LAYERS = """\
import torch
from torch import nn
from registry import register


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


@register
def block():
    return Block()


@register
def double_block():
    return Block().double()
"""
DATA = """\
import numpy as np
import torch
from torch.utils.data import Dataset


class Points(Dataset):
    def __init__(self, n=16):
        self.x = np.random.rand(n, 4)
        self.y = np.random.randint(0, 2, n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])
"""
TRAINS = {
    # the registry filled by layers, a double model from it, a float64 batch from data
    "train_a.py": """\
\"\"\"Train a block.\"\"\"
import torch
from registry import create
import layers
from data import Points

model = create("block")
x, y = Points()[0]
out = model(x)
""",
    # the same modules in another order: other oids, other counters, no replay of a's
    "train_b.py": """\
import torch
from data import Points
import layers
from registry import create

model = create("block")
x, y = Points()[0]
out = model(x.float())
double = create("double_block")
z = double(torch.zeros(2, 4))
""",
    # the config module's default dtype, set at its import, reaches this file's creations
    "train_c.py": """\
import torch
import cfg
import layers
from registry import create

model = create("block")
out = model(torch.zeros(2, 4, dtype=torch.float32))
""",
    # code before the imports: not a pure prefix, never replayed nor kept
    "train_d.py": """\
import torch
torch.manual_seed(0)
import cfg
import layers
from registry import create

model = create("block")
out = model(torch.zeros(2, 4, dtype=torch.float32))
""",
    # an optional import guarded by try/except and a constant: still only imports, so replayed
    "train_e.py": """\
import torch
try:
    import wandb
except ImportError:
    wandb = None
HAS_WANDB = False
import cfg
import layers
from registry import create

model = create("double_block")
out = model(torch.zeros(2, 4, dtype=torch.float32))
""",
}


def _project(tmp_path: Path) -> list[Path]:
    for name, text in {"cfg.py": CFG, "registry.py": REGISTRY, "layers.py": LAYERS, "data.py": DATA, **TRAINS}.items():
        (tmp_path / name).write_text(text)
    return sorted(tmp_path.glob("*.py"))


def _seen(findings: list[Finding]) -> list[tuple[object, ...]]:
    return [(f.code, f.span, f.message, tuple(f.related)) for f in findings]


def _alone(path: Path) -> list[tuple[object, ...]]:
    return _seen(check_source(path.read_text(), str(path)).findings)


def test_a_folder_run_with_the_memo_finds_what_each_file_alone_finds(tmp_path: Path) -> None:
    files = _project(tmp_path)
    alone = {p.name: _alone(p) for p in files}
    assert any(code == "DG004" for code, *_ in alone["train_a.py"])  # (the project does reach the checked files)
    for order in (files, files[::-1], [*files, *files]):
        with shared_across_files():
            memo = shared_memo()
            assert memo is not None
            for path in order:
                assert _seen(check_source(path.read_text(), str(path)).findings) == alone[path.name], path.name
            assert memo.hits > 0  # (the same imports in the same order: data, layers, registry, cfg and the trains' own)


def test_the_second_run_of_a_file_replays_its_imports(tmp_path: Path) -> None:
    files = _project(tmp_path)
    train_a = tmp_path / "train_a.py"
    with shared_across_files():
        memo = shared_memo()
        assert memo is not None
        first = _seen(check_source(train_a.read_text(), str(train_a)).findings)
        hits = memo.hits
        second = _seen(check_source(train_a.read_text(), str(train_a)).findings)
        assert memo.hits > hits
    assert first == second == _alone(train_a)
    del files


def test_code_before_the_imports_is_never_replayed(tmp_path: Path) -> None:
    _project(tmp_path)
    train_d = tmp_path / "train_d.py"
    with shared_across_files():
        memo = shared_memo()
        assert memo is not None
        for _ in range(2):
            check_source(train_d.read_text(), str(train_d))
        assert memo.hits == 0 and not memo.entries


def test_the_default_dtype_an_import_set_is_replayed(tmp_path: Path) -> None:
    _project(tmp_path)
    train_c = tmp_path / "train_c.py"
    alone = _alone(train_c)
    assert any(code == "DG004" or code == "DG001" for code, *_ in alone), alone  # float64 layers from cfg's default
    with shared_across_files():
        memo = shared_memo()
        assert memo is not None
        runs = [_seen(check_source(train_c.read_text(), str(train_c)).findings) for _ in range(3)]
        assert memo.hits >= 2
    assert runs == [alone] * 3


def test_the_language_server_never_shares() -> None:
    assert shared_memo() is None


def test_optional_imports_in_try_blocks_keep_the_prefix_pure(tmp_path: Path) -> None:
    """`try: import wandb` / `except ImportError: wandb = None` before the project's imports (timm's
    `try: from typing import Literal`): the imports after it are replayed, with the same findings."""
    _project(tmp_path)
    train_e = tmp_path / "train_e.py"
    alone = _alone(train_e)
    assert alone  # (float64 layers from cfg's default, fed float32)
    with shared_across_files():
        memo = shared_memo()
        assert memo is not None
        runs = [_seen(check_source(train_e.read_text(), str(train_e)).findings) for _ in range(2)]
        assert memo.hits >= 1
    assert runs == [alone] * 2
