"""`dtypeguard check` over a folder shares imported modules' trees and import resolutions from
one file to the next (issue 16's speed): the outcomes must be those of analysing every file on
its own, findings, notes and dependencies alike, whatever was analysed before in the process."""

from __future__ import annotations

from pathlib import Path

import pytest

from dtypeguard.check_pool import analyse_all, analyse_file
from dtypeguard.check_results import Outcome
from dtypeguard.config import Config
from dtypeguard.engine import imports
from dtypeguard.files import iter_python_files
from tests.engine.test_cross_module import CONFIG, DATA, MODELS, TRAIN

ROOT = Path(__file__).resolve().parents[2]

# a package whose layers every model imports, one of them setting the default dtype at import,
# and scripts importing them in different orders and at different lines (a finding anchored at
# the call that ran imported code must be found at this file's call, not at the previous one's)
LAYERS = "import torch\nfrom torch import nn\n\n\ndef block(n):\n    return nn.Sequential(nn.Linear(n, n), nn.ReLU())\n"
WIDE = "import torch\n\ntorch.set_default_dtype(torch.float64)\n\nfrom .layers import block\n\n\ndef wide():\n    return block(4)\n"
PKG_INIT = "from .layers import block\n"
USE_WIDE = "import torch\nfrom pkg.wide import wide\n\nm = wide()\nm(torch.randn(2, 4))\n"
USE_BOTH = "\n\nimport numpy as np\nimport torch\nfrom pkg import block\nfrom models import build\n\nnet = build()\nnet(torch.randn(3, 4))\nblock(4)(torch.from_numpy(np.ones((2, 4))))\n"
BROKEN = "from models import (\n"
# the whole failure inside an imported function: shown at the call here that ran it
RUNNER = (
    "import numpy as np\nimport torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n"
    "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n        return self.fc(x)\n\n\n"
    "def run():\n    x = torch.from_numpy(np.random.rand(2, 4))\n    return Net()(x)\n"
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _jobs(paths: list[str]) -> list[tuple[Path, str, Config]]:
    files = [p for p in iter_python_files(paths) if p.suffix == ".py"]
    return [(p, p.read_text(encoding="utf-8"), Config()) for p in files]


def _alone(jobs: list[tuple[Path, str, Config]]) -> list[Outcome]:
    assert imports._shared is None  # nothing shared: each file analysed as the editor would
    return [analyse_file(*job) for job in jobs]


def _same(shared: list[Outcome], alone: list[Outcome], jobs: list[tuple[Path, str, Config]]) -> None:
    for job, a, b in zip(jobs, shared, alone, strict=True):
        assert (a.reported, a.messages, a.dependencies) == (b.reported, b.messages, b.dependencies), job[0]


@pytest.mark.parametrize("order", ["forward", "reverse"])
def test_sharing_across_files_changes_no_outcome(tmp_path: Path, order: str) -> None:
    files = {
        "data.py": DATA, "models.py": MODELS, "config_cuda.py": CONFIG, "train.py": TRAIN,
        "train_late.py": "\n\n\n# the same loop, further down\n" + TRAIN, "pkg/__init__.py": PKG_INIT,
        "pkg/layers.py": LAYERS, "pkg/wide.py": WIDE, "use_wide.py": USE_WIDE, "use_both.py": USE_BOTH,
        "use_both_again.py": USE_BOTH.replace("\n\n", "\n", 1), "broken_import.py": BROKEN,
        "runner.py": RUNNER, "call_a.py": "from runner import run\n\nrun()\n", "call_b.py": "\n\n\nfrom runner import run\n\n\nrun()\n",
    }
    jobs = _jobs([str(_write(tmp_path / "proj", files))])
    if order == "reverse":
        jobs.reverse()
    alone = _alone(jobs)
    assert sum(len(o.reported) for o in alone) >= 3 and any(o.dependencies for o in alone)
    calls = {job[0].name: o for job, o in zip(jobs, alone, strict=True) if job[0].name.startswith("call_")}
    assert [(n, [(r.finding.code, r.finding.span.line) for r in o.reported]) for n, o in sorted(calls.items())] == [
        ("call_a.py", [("DG004", 3)]), ("call_b.py", [("DG004", 7)])
    ]
    shared = analyse_all(jobs, 1)
    _same(shared, alone, jobs)
    assert imports._shared is None  # and nothing stays shared after the run
    assert analyse_all(jobs, 1) == shared  # twice in one process: the same again


_FOLDERS = [str(ROOT / "samples"), *(str(p) for p in sorted(ROOT.glob("tests/realworld*")) if p.is_dir())]
_PARTS = 4  # (in parts, each well inside the per-test timeout on a slow machine; one part failing names fewer files)


@pytest.mark.parametrize("part", range(_PARTS))
def test_sharing_across_files_changes_no_outcome_on_the_real_world_sets(part: int) -> None:
    jobs = _jobs(_FOLDERS[part::_PARTS])
    assert len(jobs) > 100
    _same(analyse_all(jobs, 1), _alone(jobs), jobs)


def test_a_budget_too_small_for_one_module_keeps_the_same_outcomes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"data.py": DATA, "models.py": MODELS, "train.py": TRAIN, "train_late.py": "\n\n" + TRAIN}
    jobs = _jobs([str(_write(tmp_path / "proj", files))])
    alone = _alone(jobs)
    monkeypatch.setattr(imports, "_SHARED_TEXT_BUDGET", len(DATA) + 1)  # keeps one module at a time: evicts
    _same(analyse_all(jobs, 1), alone, jobs)
