"""A second, independent LSP client: Neovim's built-in one, headless (`make nvim-setup`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SAMPLE = ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py"


@pytest.mark.e2e
def test_neovim_diagnostics_hover_and_code_actions(tmp_path: Path) -> None:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (`make nvim-setup` installs Debian's neovim)")
    script = tmp_path / "train.py"
    script.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-c", f"luafile {HERE / 'lsp_check.lua'}", str(script)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
        env={"DTYPEGUARD_PY": sys.executable, "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "DIAG 24:9-24:28 sev=1 source=dtypeguard code=DG004" in output  # at torch.from_numpy(X), where the fix goes
    assert "HOVER " in output
    assert "ACTION Ignore DG004 on this line kind=quickfix" in output
    assert "APPLIED Convert where it is created" in output
    assert "FIXED" in output and output.rstrip().endswith("OK")
    assert "TYPED DG004 at line 34" in output  # typed key by key above `loss = ...` (0-based line 34)
