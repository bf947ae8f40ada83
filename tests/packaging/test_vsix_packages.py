"""The five platform packages `make vsix-all` built (make test-packaging builds them first).

Each one: the manifest names its target, every compiled module is a binary for that OS and CPU
with a wheel tag for that platform and CPython, and libcst's parser is there for each Python.
Checked against the wrong target, each must fail. The linux-x64 one, unpacked, runs its bundled
server on this machine's Python and finds the hazard; the e2e suite installs the same file
(dtypeguard-<version>.vsix is a copy of it) into code-server."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.packaging.support import PYTHONS, REPO, TARGETS, VERSION, script

pytestmark = pytest.mark.packaging
cv = script("check_vsix")
# the target whose binaries are a different CPU or OS, for the negative check
WRONG = {"linux-x64": "linux-arm64", "linux-arm64": "linux-x64", "darwin-x64": "darwin-arm64",
         "darwin-arm64": "darwin-x64", "win32-x64": "linux-x64"}


def vsix(target: str) -> Path:
    path = REPO / f"dtypeguard-{target}-{VERSION}.vsix"
    assert path.is_file(), f"{path.name} missing: run `make vsix-all`"
    return path


@pytest.mark.parametrize("target", TARGETS)
def test_package_holds_only_its_targets_wheels(target: str) -> None:
    problems, natives = cv.check(str(vsix(target)), target, PYTHONS)
    assert problems == []
    assert natives >= 2 * len(PYTHONS)  # libcst's parser and PyYAML's _yaml for each Python
    wrong, _ = cv.check(str(vsix(target)), WRONG[target], PYTHONS)
    assert any("TargetPlatform" in p for p in wrong)
    assert sum("needs" in p for p in wrong) == natives, wrong


def test_the_e2e_package_is_the_linux_x64_one() -> None:
    assert (REPO / f"dtypeguard-{VERSION}.vsix").read_bytes() == vsix("linux-x64").read_bytes()


def test_linux_x64_bundle_runs_the_server_from_its_own_libs(tmp_path: Path) -> None:
    with zipfile.ZipFile(vsix("linux-x64")) as z:
        z.extractall(tmp_path)
    bundled = tmp_path / "extension" / "bundled"
    sample = tmp_path / "train.py"
    sample.write_text((REPO / "samples" / "hazards" / "h06_numpy_float64_linear.py").read_text())
    env = {**os.environ, "PYTHONPATH": f"{bundled / 'libs'}{os.pathsep}{bundled / 'server'}"}
    where = subprocess.run(
        [sys.executable, "-c", "import dtypeguard, libcst.native, yaml; "
         "print(dtypeguard.__file__); print(libcst.native.__file__); print(yaml.__file__)"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert all(line.startswith(str(bundled)) for line in where.stdout.splitlines()), where.stdout
    proc = subprocess.run([sys.executable, "-m", "dtypeguard", "check", str(sample)],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "DG004" in proc.stdout
