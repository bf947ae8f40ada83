"""The GitHub Actions workflow in docs/ci.md: it parses, uploads the SARIF its check step
writes, and that step (run here with bash, with this checkout's dtypeguard on PATH) writes a
valid log and lets the job reach the upload whether or not there are findings."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.packaging.support import REPO
from tests.packaging.test_sarif import errors

DOC = REPO / "docs" / "ci.md"


def workflow() -> dict[Any, Any]:
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    data = yaml.safe_load(blocks[0])
    assert isinstance(data, dict)
    return data


def steps() -> list[dict[str, Any]]:
    return list(workflow()["jobs"]["dtypeguard"]["steps"])


def test_workflow_uploads_the_log_to_code_scanning() -> None:
    flow = workflow()
    assert flow["permissions"]["security-events"] == "write"
    assert {"push", "pull_request"} <= set(flow[True])  # YAML 1.1 reads the key `on` as True
    by_name = {s.get("name"): s for s in steps()}
    check = by_name["dtypeguard check"]
    assert "dtypeguard check --format sarif" in check["run"]
    upload = by_name["Upload to code scanning"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] in check["run"]
    assert "always()" in upload["if"]
    names = [s.get("name") for s in steps()]
    assert names.index("dtypeguard check") < names.index("Upload to code scanning") < names.index("Fail on findings")


@pytest.mark.parametrize(("sample", "status"), [
    ("samples/hazards/h06_numpy_float64_linear.py", "1"),
    ("samples/clean/numpy_float32_pipeline.py", "0"),
])
def test_the_check_step_writes_a_valid_log_and_reaches_the_upload(tmp_path: Path, sample: str,
                                                                  status: str) -> None:
    step = next(s for s in steps() if s.get("name") == "dtypeguard check")
    checkout = tmp_path / "checkout"
    (checkout / "src").mkdir(parents=True)
    shutil.copy(REPO / sample, checkout / "src" / "train.py")
    output = tmp_path / "github_output"
    output.write_text("")
    bindir = tmp_path / "bin"  # `dtypeguard` as the workflow's pip install would provide it
    bindir.mkdir()
    (bindir / "dtypeguard").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m dtypeguard "$@"\n')
    (bindir / "dtypeguard").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}", "GITHUB_OUTPUT": str(output)}
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=checkout, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr  # the upload step runs next
    assert output.read_text().strip() == f"status={status}"  # "Fail on findings" reads it
    log = json.loads((checkout / "dtypeguard.sarif").read_text())
    assert errors(log) == []
    results = log["runs"][0]["results"]
    if status == "1":
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert uris == {"src/train.py"}  # relative to the checkout, as code scanning wants
    else:
        assert results == []


def test_the_check_step_stops_on_a_usage_error(tmp_path: Path) -> None:
    step = next(s for s in steps() if s.get("name") == "dtypeguard check")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "dtypeguard").write_text("#!/bin/sh\nexit 2\n")
    (bindir / "dtypeguard").chmod(0o755)
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_OUTPUT": str(tmp_path / "out")}
    proc = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
