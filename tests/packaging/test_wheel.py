"""The wheel and sdist as a user gets them: `python -m build` makes both (the wheel from the
sdist, so the sdist is complete), and the wheel, installed with pip into a fresh venv outside
the checkout, runs `check`, `lsp` and `verify` from its own files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.packaging.support import REPO, VERSION

pytestmark = pytest.mark.packaging
HAZARD = REPO / "samples" / "hazards" / "h06_numpy_float64_linear.py"
CLEAN = REPO / "samples" / "clean" / "numpy_float32_pipeline.py"
TORCH_PYTHON = Path(sys.executable)  # make setup's .venv, which has torch: for verify


@dataclass
class Installed:
    dist: Path  # the wheel and sdist
    venv: Path  # a fresh venv with only the wheel (and its dependencies) installed
    work: Path  # a folder outside the checkout with copies of the samples

    def run(self, *args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        return subprocess.run([str(self.venv / "bin" / "dtypeguard"), *args], cwd=self.work, env=env,
                              capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    root = tmp_path_factory.mktemp("wheel")
    assert not root.resolve().is_relative_to(REPO)
    dist = root / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)],
                   check=True, capture_output=True, text=True, timeout=600)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    wheel = dist / f"dtypeguard-{VERSION}-py3-none-any.whl"
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
                   check=True, timeout=600, env={**os.environ, "PIP_ROOT_USER_ACTION": "ignore"})
    work = root / "work"
    work.mkdir()
    shutil.copy(HAZARD, work / "train.py")
    shutil.copy(CLEAN, work / "clean.py")
    shutil.copy(REPO / "samples" / "fixed" / "blog_mnist_trick.py", work / "fixed.py")
    yield Installed(dist, venv, work)


def test_build_makes_a_wheel_and_an_sdist(installed: Installed) -> None:
    wheel = installed.dist / f"dtypeguard-{VERSION}-py3-none-any.whl"
    sdist = installed.dist / f"dtypeguard-{VERSION}.tar.gz"
    names = zipfile.ZipFile(wheel).namelist()
    for need in ["dtypeguard/__main__.py", "dtypeguard/py.typed", "dtypeguard/verify/harness.py",
                 "dtypeguard/lsp/server.py", f"dtypeguard-{VERSION}.dist-info/entry_points.txt",
                 f"dtypeguard-{VERSION}.dist-info/licenses/LICENSE"]:
        assert need in names
    assert not [n for n in names if n.startswith(("tests/", "samples/")) or n.endswith(".pyc")]
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert {"pyproject.toml", "README.md", "LICENSE", "server/dtypeguard/verify/harness.py"} <= members
    meta = zipfile.ZipFile(wheel).read(f"dtypeguard-{VERSION}.dist-info/METADATA").decode()
    assert "Requires-Dist: libcst" in meta and "Provides-Extra: verify" in meta
    assert "Requires-Dist: torch" not in meta.replace("Requires-Dist: torch==2.13.0; extra ==", "")


def test_installed_package_comes_from_the_venv_not_the_checkout(installed: Installed) -> None:
    python = installed.venv / "bin" / "python"
    proc = subprocess.run([str(python), "-c", "import dtypeguard, importlib.util as u; "
                           "print(dtypeguard.__file__); print(u.find_spec('torch') is None)"],
                          cwd=installed.work, capture_output=True, text=True, check=True)
    where, no_torch = proc.stdout.split()
    assert Path(where).is_relative_to(installed.venv)
    assert no_torch == "True"
    version = installed.run("--version")
    assert version.stdout.strip() == f"dtypeguard {VERSION}"


def test_check_reports_the_hazard_and_exits_1(installed: Installed) -> None:
    proc = installed.run("check", "train.py")
    assert proc.returncode == 1, proc.stderr
    assert "train.py:" in proc.stdout and "DG004" in proc.stdout
    clean = installed.run("check", "clean.py")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    sarif = installed.run("check", "--format", "sarif", "train.py")
    assert sarif.returncode == 1
    assert {r["ruleId"] for r in json.loads(sarif.stdout)["runs"][0]["results"]} >= {"DG004"}


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read_frame(stream: object) -> dict[str, object]:
    read = stream.readline  # type: ignore[attr-defined]
    length = None
    while (line := read()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    assert length is not None, "the server closed its output"
    return dict(json.loads(stream.read(length)))  # type: ignore[attr-defined]


def test_lsp_answers_initialize_and_exits(installed: Installed) -> None:
    proc = subprocess.Popen([str(installed.venv / "bin" / "dtypeguard"), "lsp"], cwd=installed.work,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": installed.work.as_uri(), "capabilities": {}}}))
        proc.stdin.flush()
        answer = _read_frame(proc.stdout)
        while "id" not in answer:  # notifications (window/logMessage) may come first
            answer = _read_frame(proc.stdout)
        assert answer["id"] == 1, answer
        result = answer["result"]
        assert isinstance(result, dict)
        assert result["serverInfo"]["name"] == "dtypeguard"
        caps = result["capabilities"]
        assert caps["codeActionProvider"] and caps["hoverProvider"]
        assert "dtypeguard.verify" in caps["executeCommandProvider"]["commands"]
        for message in ({"jsonrpc": "2.0", "method": "initialized", "params": {}},
                        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
                        {"jsonrpc": "2.0", "method": "exit"}):
            proc.stdin.write(_frame(message))
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_verify_without_torch_says_what_is_missing(installed: Installed) -> None:
    proc = installed.run("verify", "--device", "cpu", "fixed.py")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "no-torch" in proc.stdout and "cannot import torch" in proc.stdout
    assert "pip install torch" in proc.stdout and "--python PATH" in proc.stdout


def test_verify_with_torch_runs_to_the_first_step(installed: Installed) -> None:
    # the harness ships in the wheel; it runs in the interpreter that has torch
    proc = installed.run("verify", "--device", "cpu", "--python", str(TORCH_PYTHON),
                         "--format", "json", "fixed.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "ok" and data["device"] == "cpu"
    assert data["step"]["optimizer"]
