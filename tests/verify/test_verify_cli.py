"""`python -m dtypeguard verify`: JSON and text output, exit codes, nothing left in TMPDIR."""

from __future__ import annotations

import json

import pytest
from verify_support import ColdRuns, cli, leftovers, marker_line, no_torch_python, script

from dtypeguard.verify.result import STATUSES, VerifyResult
from dtypeguard.verify_cmd import exit_code


def test_json_format_ok_with_script_args_and_no_temp_files(cold: ColdRuns) -> None:
    proc = cold.cli("cli_json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)  # one JSON object, nothing else on stdout
    assert data["status"] == "ok"
    assert data["summary"].startswith("Adam step OK on cpu")
    assert data["step"]["param_dtypes"] == {"float32": 4}
    assert "args=['-v', 'x y']" in data["stdout_tail"]
    assert {"device", "duration_s", "path", "line", "error_type", "message", "traceback",
            "warnings", "memory", "time_to_step_s", "import_torch_s"} <= set(data)
    assert leftovers(cold.tmp / "cli_tmp") == []


def test_text_format_error_names_file_line_and_rule(cold: ColdRuns) -> None:
    proc = cold.cli("cli_text")
    assert proc.returncode == 1, proc.stderr
    line = marker_line("forward_error.py", "ERROR-LINE")
    first = proc.stdout.splitlines()[0]
    assert f"forward_error.py:{line}: error: RuntimeError: mat1 and mat2" in first
    assert "[DG004]" in first
    assert "this is DG004 (input-dtype-mismatch)" in proc.stdout
    assert "Traceback" in proc.stdout


def test_no_torch_exits_2() -> None:
    python = no_torch_python()
    if python is None:
        pytest.skip("no interpreter without torch on this machine")
    proc = cli("--python", python, "--format", "json", script("good.py"))
    assert proc.returncode == 2
    data = json.loads(proc.stdout)
    assert data["status"] == "no-torch"
    assert "cannot import torch" in data["message"]
    assert "--python PATH" in data["hint"] and "pip install torch" in data["hint"]
    text = cli("--python", python, script("good.py"))
    assert text.returncode == 2
    assert "no-torch" in text.stdout and "pip install torch" in text.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("/nonexistent/train.py",),
        ("--python", "/nonexistent/python", "TRAIN"),
        ("--timeout", "0", "TRAIN"),
    ],
)
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    proc = cli(*(script("good.py") if a == "TRAIN" else a for a in args))
    assert proc.returncode == 2
    assert "dtypeguard verify: error:" in proc.stderr


def test_exit_codes_per_status() -> None:
    expected = {"ok": 0, "no-torch": 2, "no-cuda": 2, "cannot-emulate": 2}
    for status in STATUSES:
        res = VerifyResult(status=status, device="cpu", duration_s=0.0, file="x.py")
        assert exit_code(res) == expected.get(status, 1), status
