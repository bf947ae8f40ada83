"""The README's Neovim set-up snippets work as written: the Neovim 0.7 one is run in the Neovim
on this machine (0.7.2), headless, on a real sample, and must bring dtypeguard's diagnostics;
the 0.8-0.10 and 0.11+ ones use APIs that 0.7 lacks, so they are only checked to parse as Lua
(a typo in them fails here)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py"


def _snippets() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("**Neovim**", 1)[1].split("**Other editors**", 1)[0]
    return re.findall(r"```lua\n(.*?)```", section, re.S)


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("nvim is not installed (`make nvim-setup` installs Debian's neovim)")
    return nvim


def test_there_is_a_snippet_per_neovim_generation() -> None:
    snippets = _snippets()
    assert len(snippets) == 3
    assert "vim.lsp.config" in snippets[0] and "vim.lsp.enable" in snippets[0]
    assert "vim.lsp.start(" in snippets[1]
    assert "vim.lsp.start_client" in snippets[2]


@pytest.mark.e2e
def test_every_snippet_parses_as_lua(tmp_path: Path) -> None:
    nvim = _nvim()
    for i, snippet in enumerate(_snippets()):
        lua = tmp_path / f"snippet{i}.lua"
        lua.write_text(snippet, encoding="utf-8")
        check = f"lua local f, e = loadfile('{lua}'); if not f then io.stdout:write('PARSE ' .. e) vim.cmd('cquit! 1') end"
        proc = subprocess.run([nvim, "--headless", "--clean", "-c", check, "-c", "qall!"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, (i, proc.stdout + proc.stderr)


@pytest.mark.e2e
def test_the_neovim_07_snippet_brings_diagnostics(tmp_path: Path) -> None:
    nvim = _nvim()
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    snippet = _snippets()[2]
    if not version.startswith("NVIM v0.7"):
        pytest.skip(f"the 0.7 snippet is run on Neovim 0.7; this is {version.splitlines()[0]}")
    init = tmp_path / "init.lua"
    init.write_text(snippet, encoding="utf-8")
    bindir = tmp_path / "bin"  # `dtypeguard` on PATH, as the README asks, for this test's Python
    bindir.mkdir()
    launcher = bindir / "dtypeguard"
    launcher.write_text(f"#!/bin/sh\nexec {sys.executable} -m dtypeguard \"$@\"\n")
    launcher.chmod(0o755)
    script = tmp_path / "train.py"
    script.write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    wait = (
        "lua local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50); "
        "for _, d in ipairs(vim.diagnostic.get(0)) do io.stdout:write('DIAG ' .. d.lnum .. ' ' .. tostring(d.source) .. '\\n') end; "
        "vim.cmd(ok and 'qall!' or 'cquit! 1')"
    )
    proc = subprocess.run(
        [nvim, "--headless", "-u", str(init), "-i", "NONE", str(script), "-c", wait],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"PATH": f"{bindir}:/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "DIAG 24 dtypeguard" in output  # DG004 at torch.from_numpy(X)
