"""`dtypeguard fix --verify` (issue 13): the diff, then the original and the fixed copy run for
real up to their first optimizer step; the file is written only when the fixed copy verifies
ok (`--force`: anyway), and nothing else is ever written in the user's folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from dtypeguard.cli import main

pytest.importorskip("torch")
HAZARDS = Path(__file__).resolve().parents[2] / "samples" / "hazards"


def _script(tmp_path: Path, name: str, old: str = "", new: str = "") -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    path = folder / "train.py"
    path.write_text((HAZARDS / name).read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return path


def test_a_fix_that_makes_the_script_run_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _script(tmp_path, "h06_numpy_float64_linear.py")
    assert main(["fix", "--verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "+inputs = torch.from_numpy(X).float()" in out
    assert "before the fix: error: RuntimeError" in out and "[DG004]" in out
    assert "after the fix:  ok: Adam step OK on cpu" in out
    assert "torch.from_numpy(X).float()" in path.read_text(encoding="utf-8")
    assert sorted(p.name for p in path.parent.iterdir()) == ["train.py"]


def test_a_fix_that_does_not_make_it_run_is_not_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a second, unrelated bug (a shape mismatch) the fix cannot know about
    path = _script(tmp_path, "h06_numpy_float64_linear.py", "torch.from_numpy(y).unsqueeze(1)", "torch.from_numpy(y).unsqueeze(1)[:7]")
    original = path.read_bytes()
    assert main(["fix", "--verify", str(path)]) == 1
    captured = capsys.readouterr()
    assert "after the fix:  error: RuntimeError at line" in captured.out and "must match the size" in captured.out
    assert "DG004" in captured.out and "not written" in captured.out
    assert "not written: the fixed copy did not verify ok" in captured.err
    assert path.read_bytes() == original
    assert main(["fix", "--verify", "--force", str(path)]) == 0  # written, though it still fails
    assert "torch.from_numpy(X).float()" in path.read_text(encoding="utf-8")
    assert "written anyway (--force)" in capsys.readouterr().out


def test_only_unsafe_fixes_are_named_with_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A user whose file did not change learns why: the findings with only unsafe fixes, and the flag."""
    path = tmp_path / "h14.py"
    path.write_text((HAZARDS / "h14_bf16_adam_stalls.py").read_text(encoding="utf-8"), encoding="utf-8")
    original = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    assert path.read_bytes() == original
    captured = capsys.readouterr()
    assert "has only unsafe fixes" in captured.err and "DG013 at line 13" in captured.err
    assert "--unsafe-fixes" in captured.err and "with only an unsafe fix" in captured.err
