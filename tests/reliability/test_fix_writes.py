"""`dtypeguard fix` writes atomically and never clobbers: a file the editor saves while fix is
computing is left as the editor saved it; a write that fails half-way (disk full, a crash
before the rename) leaves the original bytes and no temporary file; a symlink stays a symlink
and its target gets the fix. (tests/fixes/test_cli.py covers write_atomic called directly.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import dtypeguard.fix_cmd as fix_cmd
from dtypeguard.cli import main
from dtypeguard.fixes.api import fix_all
from tests.reliability.support import ROOT

H06 = ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py"
FIXED_LINE = "inputs = torch.from_numpy(X).float()"


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "train.py"
    path.write_bytes(H06.read_bytes())
    return path


def test_a_save_during_the_fix_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    path = _copy(tmp_path)
    real_fix_all = fix_all
    saved = "# the editor saved this while fix was thinking\n" + H06.read_text(encoding="utf-8")

    def slow_fix_all(*args: object, **kwargs: object) -> object:
        result = real_fix_all(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text(saved, encoding="utf-8")  # same size or not, same mtime or not
        return result

    monkeypatch.setattr(f"{fix_cmd.__name__}.fix_all", slow_fix_all)
    assert main(["fix", str(path)]) == 2
    assert path.read_text(encoding="utf-8") == saved
    assert "changed on disk" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"], "no temporary file left"


def test_a_same_size_same_mtime_change_is_still_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A tool that rewrites the file in place and restores its mtime: the content hash sees it."""
    path = _copy(tmp_path)
    stat = path.stat()
    real_fix_all = fix_all
    original = path.read_bytes()
    sneaky = original.replace(b"np.random.default_rng(42)", b"np.random.default_rng(43)")
    assert len(sneaky) == len(original) and sneaky != original

    def sneaky_fix_all(*args: object, **kwargs: object) -> object:
        result = real_fix_all(*args, **kwargs)  # type: ignore[arg-type]
        path.write_bytes(sneaky)
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        return result

    monkeypatch.setattr(f"{fix_cmd.__name__}.fix_all", sneaky_fix_all)
    assert main(["fix", str(path)]) == 2
    assert path.read_bytes() == sneaky
    capsys.readouterr()


@pytest.mark.parametrize("failing", ["fsync", "replace", "chmod"])
def test_a_failed_write_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = _copy(tmp_path)
    before = path.read_bytes()

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(f"{fix_cmd.__name__}.os.{failing}", boom)
    assert main(["fix", str(path)]) == 2
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"], "no temporary file left"
    assert "No space left" in capsys.readouterr().err


def test_an_interrupt_during_the_write_leaves_the_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _copy(tmp_path)
    before = path.read_bytes()

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(f"{fix_cmd.__name__}.os.replace", interrupted)
    assert main(["fix", str(path)]) == 130  # the CLI's answer to Ctrl-C
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"]


def test_a_symlink_stays_a_symlink(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = _copy(tmp_path)
    (tmp_path / "link").mkdir()
    link = tmp_path / "link" / "train.py"
    link.symlink_to(real)
    assert main(["fix", str(link)]) == 0
    assert link.is_symlink(), "the fix replaced the symlink by a regular file"
    assert FIXED_LINE in real.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "train.py"]
    assert [p.name for p in (tmp_path / "link").iterdir()] == ["train.py"]
    capsys.readouterr()


def test_a_hard_link_keeps_seeing_the_fixed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    real = _copy(tmp_path)
    other = tmp_path / "same_file.py"
    os.link(real, other)
    inode = real.stat().st_ino
    assert main(["fix", str(real)]) == 0
    assert real.stat().st_ino == inode and real.stat().st_nlink == 2, "the fix gave the path a new inode"
    assert FIXED_LINE in other.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["same_file.py", "train.py"]  # no temporary left
    capsys.readouterr()


def test_crlf_bom_and_mode_survive_and_nothing_else_changes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "train.py"
    original = b"\xef\xbb\xbf" + H06.read_text(encoding="utf-8").replace("\n", "\r\n").encode("utf-8")
    path.write_bytes(original)
    os.chmod(path, 0o751)
    assert main(["fix", str(path)]) == 0
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and path.stat().st_mode & 0o777 == 0o751
    old_lines = original.split(b"\r\n")
    new_lines = data.split(b"\r\n")
    assert len(old_lines) == len(new_lines)
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=True) if a != b]
    assert changed == [(b"inputs = torch.from_numpy(X)  # expect: DG004", (FIXED_LINE + "  # expect: DG004").encode())]
    capsys.readouterr()
