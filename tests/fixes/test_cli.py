"""`dtypeguard fix` on real files: in place, atomic, --diff writes nothing, exit codes, and
files it must not touch (changed on disk, not UTF-8) stay exactly as they were."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dtypeguard.cli import main
from dtypeguard.fix_cmd import ChangedOnDisk, fingerprint, write_atomic

ROOT = Path(__file__).resolve().parents[2]
HAZARDS = ROOT / "samples" / "hazards"


def copy(tmp_path: Path, name: str, transform: str = "") -> Path:
    target = tmp_path / name
    text = (HAZARDS / name).read_text(encoding="utf-8")
    data = text.replace("\n", "\r\n").encode() if transform == "crlf" else text.encode()
    target.write_bytes((b"\xef\xbb\xbf" if transform == "bom" else b"") + data)
    return target


def test_diff_prints_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "h06_numpy_float64_linear.py")
    before = path.read_bytes(), path.stat().st_mtime_ns
    assert main(["fix", "--diff", str(path)]) == 1
    out = capsys.readouterr().out
    assert "-inputs = torch.from_numpy(X)  # expect: DG004\n+inputs = torch.from_numpy(X).float()  # expect: DG004\n" in out
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_diff_output_is_a_patch_git_applies_with_the_findings_left_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Scan 31: `fix --diff > fix.patch` must give a patch; the findings no fix resolves go to stderr."""
    path = tmp_path / "mixed.py"
    path.write_text("import torch\nm = torch.rand(5) > 0.5\nz = m - m\ngt = torch.rand(5) > 0.5\ninter = (gt + m) == 2\n", encoding="utf-8")
    assert main(["fix", "--diff", str(path)]) == 1
    captured = capsys.readouterr()
    assert "DG004" in captured.err and "z = m - m" not in captured.err
    assert all(line.startswith(("---", "+++", "@@", " ", "+", "-")) for line in captured.out.splitlines()), captured.out
    # the paths are a/<absolute path without its leading slash>: applied from the root with one level stripped
    applied = subprocess.run(["git", "apply", "-p1", "--unsafe-paths", "--directory=/", "-"], input=captured.out, cwd="/", capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    assert "inter = (gt.int() + m.int()) == 2\n" in path.read_text(encoding="utf-8")


def test_fix_in_place_then_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "h06_numpy_float64_linear.py")
    assert main(["fix", str(path)]) == 0
    assert "inputs = torch.from_numpy(X).float()  # expect: DG004\n" in path.read_text(encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert main(["fix", str(path)]) == 0  # idempotent
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temp files left
    capsys.readouterr()


def test_findings_left_exit_1_and_unsafe_needs_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # bfloat16 training's only fix is unsafe (float16 Adam's `fused=True` is safe: h13 changes without the flag)
    path = copy(tmp_path, "h14_bf16_adam_stalls.py")
    original = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    assert path.read_bytes() == original
    assert "--unsafe-fixes" in capsys.readouterr().out
    assert main(["fix", "--unsafe-fixes", str(path)]) == 0
    text = path.read_text(encoding="utf-8")  # the unsafe fix: float32 master weights + autocast
    assert "    return model  #" in text and 'with torch.autocast(device_type="cpu", dtype=torch.bfloat16):' in text
    half = copy(tmp_path, "h13_fp16_adam_eps.py")
    assert main(["fix", str(half)]) == 0
    assert "fused=True" in half.read_text(encoding="utf-8")
    capsys.readouterr()


def test_a_file_libcst_cannot_read_is_not_said_to_have_an_unsafe_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Scan 37's layout (a space-indented block inside tab-indented code): Python reads it and the
    finding is reported, but no fix can be applied, so the summary does not offer
    `--unsafe-fixes` and says why instead."""
    path = tmp_path / "tabs.py"
    path.write_text('import argparse\nimport torch\n\n\ndef main():\n\targs = argparse.ArgumentParser().parse_args()\n\tif args:\n'
                    '            args.n = 9\n\tckpt = torch.load("c.pth")\n\ttorch.save({"opt": args}, "c.pth")\n', encoding="utf-8")
    original = path.read_bytes()
    assert main(["fix", str(path)]) == 1
    out, err = capsys.readouterr()
    assert path.read_bytes() == original
    assert "DG011" in out and "--unsafe-fixes" not in out + err, out + err
    assert "no fix can be applied: libcst cannot read this file's layout" in err
    assert "1 finding left without a fix." in err


def test_select_and_ignore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "h01_deprecated_default_tensor_type.py")
    assert main(["fix", "--ignore", "DG004", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    assert "torch.set_default_dtype(torch.float32)" in text and "from_numpy(features)  #" in text
    assert main(["fix", "--select", "DG004", str(path)]) == 0
    assert "from_numpy(features).float()" in path.read_text(encoding="utf-8")
    capsys.readouterr()


@pytest.mark.parametrize("transform", ["crlf", "bom"])
def test_line_endings_and_bom_survive(tmp_path: Path, transform: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "h24_batch_not_moved.py", transform)
    assert main(["fix", str(path)]) == 0
    data = path.read_bytes()
    if transform == "crlf":
        assert b"\r\n        xb = xb.to(device)\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    else:
        assert data.startswith(b"\xef\xbb\xbf") and b"\n        xb = xb.to(device)\n" in data
    capsys.readouterr()


def test_non_utf8_file_is_an_error_and_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.py"
    path.write_bytes("import torch\nx = torch.from_numpy(a)  # caf\xe9\n".encode("latin-1"))
    before = path.read_bytes()
    assert main(["fix", str(path)]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fix", str(tmp_path / "nope.py")]) == 2
    capsys.readouterr()


def test_a_file_changed_on_disk_is_not_overwritten(tmp_path: Path) -> None:
    path = copy(tmp_path, "h06_numpy_float64_linear.py")
    before = fingerprint(path)
    path.write_text("# the editor saved this meanwhile\n", encoding="utf-8")
    with pytest.raises(ChangedOnDisk):
        write_atomic(path, "fixed\n", before)
    assert path.read_text(encoding="utf-8") == "# the editor saved this meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_atomic_write_keeps_mode(tmp_path: Path) -> None:
    path = copy(tmp_path, "h06_numpy_float64_linear.py")
    os.chmod(path, 0o640)
    write_atomic(path, "x = 1\n", fingerprint(path))
    assert path.read_text(encoding="utf-8") == "x = 1\n" and path.stat().st_mode & 0o777 == 0o640


def test_python_dash_m_works_the_same(tmp_path: Path) -> None:
    path = copy(tmp_path, "h15_fused_and_foreach.py")
    proc = subprocess.run([sys.executable, "-m", "dtypeguard", "fix", "--diff", str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "+optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, fused=True)" in proc.stdout
