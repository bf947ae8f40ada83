"""Helpers shared by the verify tests: where the sample scripts are, marker lines, pid checks."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from dtypeguard.verify.runner import VerifyResult

SCRIPTS = Path(__file__).parent / "scripts"
REPO = Path(__file__).resolve().parents[2]
BASE_PYTHON = "/root/.pyenv/versions/3.11.7/bin/python3"  # an interpreter without torch


def cli(*args: str, tmp: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m dtypeguard verify ARGS` as a user would run it (TMPDIR=`tmp` if given)."""
    env = dict(os.environ)
    if tmp is not None:
        env["TMPDIR"] = str(tmp)
    return subprocess.run(
        [sys.executable, "-m", "dtypeguard", "verify", *args],
        capture_output=True, text=True, timeout=180, cwd=REPO, env=env,
    )


def script(name: str) -> str:
    return str(SCRIPTS / name)


def marker_line(name: str, marker: str) -> int:
    """1-based line of the first line in scripts/`name` that contains `marker`."""
    for number, text in enumerate((SCRIPTS / name).read_text().splitlines(), start=1):
        if marker in text:
            return number
    raise AssertionError(f"{marker} not in {name}")


def pid_gone(pid: int, wait_s: float = 5.0) -> bool:
    """True once `pid` no longer runs (a zombie waiting for init to reap it counts as gone)."""
    end = time.monotonic() + wait_s
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.05)


def wait_for_file(path: Path, wait_s: float) -> bool:
    end = time.monotonic() + wait_s
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return True
        time.sleep(0.05)
    return False


def leftovers(tmp: Path) -> list[str]:
    """What a run left in the temp dir `tmp`, ignoring torch's own empty inductor cache folder
    (`torchinductor_<user>`), which any optimizer construction creates, with or without us."""
    found = []
    for entry in sorted(tmp.rglob("*")):
        if entry.name.startswith("torchinductor_") and entry.is_dir() and not any(entry.iterdir()):
            continue
        found.append(str(entry.relative_to(tmp)))
    return found


def no_torch_python() -> str | None:
    """An interpreter that cannot import torch, if this machine has one."""
    return BASE_PYTHON if os.access(BASE_PYTHON, os.X_OK) else None


@dataclass
class ColdRuns:
    """Results of the shared batch of cold runs (VerifyResult, or CompletedProcess for CLI runs)."""

    results: dict[str, object]
    tmp: Path

    def __getitem__(self, name: str) -> VerifyResult:
        value = self.results.get(name)
        if value is None:
            pytest.skip(f"no {name} run on this machine")
        assert isinstance(value, VerifyResult)
        return value

    def cli(self, name: str) -> subprocess.CompletedProcess[str]:
        value = self.results[name]
        assert isinstance(value, subprocess.CompletedProcess)
        return value

    def cuda_available(self) -> bool:
        """torch.cuda.is_available() in the tested interpreter, as the `--device cuda` run saw it
        (it ran without CUDA_VISIBLE_DEVICES): no-cuda, or CUDA emulated for want of one, means
        False."""
        run = self["cuda_requested"]
        return run.status != "no-cuda" and not run.emulated
