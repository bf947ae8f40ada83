"""Verify on scripts that train through a framework (issue 14 point 4): Lightning's
`Trainer.fit` and an `accelerate` loop call `optimizer.step()` for the user, and verify stops at
that step as for a plain loop; the runtime error of a float64 batch is found at the user's line
inside `training_step`; what Lightning writes (lightning_logs/) goes to the scratch folder.
Real subprocesses, real Lightning and accelerate (test dependencies)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("lightning")
pytest.importorskip("accelerate")

from dtypeguard.verify.runner import run_verify

FRAMEWORKS = Path(__file__).resolve().parent / "scripts" / "frameworks"


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / name
    shutil.copy(FRAMEWORKS / name, target)
    return target


def test_lightning_trainer_fit_reaches_its_first_step_in_a_scratch_folder(tmp_path: Path) -> None:
    script = _copy(tmp_path, "lightning_ok.py")
    res = run_verify(str(script), device="cpu", timeout=120.0)
    assert (res.status, res.outcome) == ("ok", "ok"), (res.message, res.stderr_tail[-2000:])
    assert res.step is not None and res.step["optimizer"] == "Adam" and res.step["params_changed"] == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lightning_ok.py"]  # no lightning_logs/ here
    assert any(w.startswith("lightning_logs") for w in res.written)


def test_lightning_float64_batch_fails_in_training_step(tmp_path: Path) -> None:
    script = _copy(tmp_path, "lightning_float64.py")
    res = run_verify(str(script), device="cpu", timeout=120.0)
    assert (res.status, res.error_type, res.rule) == ("error", "RuntimeError", "DG004")
    lines = script.read_text().splitlines()
    assert res.line is not None and "FAILS-HERE" in lines[res.line - 1]


def test_accelerate_loop_reaches_its_first_step(tmp_path: Path) -> None:
    script = _copy(tmp_path, "accelerate_ok.py")
    res = run_verify(str(script), device="cpu", timeout=120.0)
    assert (res.status, res.outcome) == ("ok", "ok"), (res.message, res.stderr_tail[-2000:])
    assert res.step is not None and res.step["optimizer"] == "AdamW"
