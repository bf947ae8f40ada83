"""Every status of a cold verification, each from a real subprocess running a small script."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from verify_support import ColdRuns, marker_line, pid_gone, script, wait_for_file

from dtypeguard.verify.runner import run_verify


def test_good_script_reports_a_full_step(cold: ColdRuns) -> None:
    res = cold["good"]
    assert res.status == "ok", res.to_json()
    assert res.mode == "cold"
    step = res.step
    assert step is not None
    assert step["optimizer"] == "Adam"
    assert step["options"]["lr"] == pytest.approx(1e-3)
    assert step["options"]["eps"] == pytest.approx(1e-8)
    assert {"fused", "foreach", "capturable"} <= set(step["options"])
    assert step["param_count"] == 4
    assert step["param_dtypes"] == {"float32": 4}
    assert step["param_devices"] == {"cpu": 4}
    assert step["grad_dtypes"] == {"float32": 4}
    assert step["state_dtypes"]["exp_avg"] == {"float32": 4}
    assert step["params_finite"] is True
    assert step["params_changed"] > 0
    assert res.loss is not None and res.loss["finite"] is True and res.loss["dtype"] == "float32"
    assert res.first_forward is not None
    assert res.first_forward["module"] == "Sequential"
    assert res.first_forward["inputs"][0] == {"dtype": "float32", "device": "cpu", "shape": [16, 3]}
    assert res.memory["ru_maxrss_kib"] > 0
    assert res.import_torch_s is not None and res.import_torch_s > 0
    assert res.time_to_step_s is not None and res.time_to_step_s > 0
    assert res.warnings == []
    assert res.summary().startswith("Adam step OK on cpu, ")


def test_good_script_sees_argv_cwd_and_no_cuda(cold: ColdRuns) -> None:
    out = cold["good"].stdout_tail
    assert "args=['--epochs', '3', 'two words']" in out
    # cwd is a scratch copy of the script's folder (never the folder itself): same entries
    cwd = out.split("cwd=", 1)[1].splitlines()[0]
    assert cwd != str(Path(script("good.py")).parent)
    assert "dtypeguard-verify" in cwd
    assert "CUDA_VISIBLE_DEVICES=''" in out  # --device cpu hides CUDA before torch is imported
    assert "stepped" not in out  # stopped right after the first step
    assert "the harness let the loop continue" not in cold["good"].stderr_tail


def test_float64_into_linear_is_an_error_at_the_right_line(cold: ColdRuns) -> None:
    res = cold["forward_error"]
    assert res.status == "error"
    assert res.error_type == "RuntimeError"
    assert res.message == "mat1 and mat2 must have the same dtype, but got Double and Float"
    assert res.line == marker_line("forward_error.py", "ERROR-LINE")
    assert res.path == os.path.realpath(script("forward_error.py"))
    assert res.rule == "DG004"
    assert res.hint is not None and res.hint.startswith("this is DG004 (input-dtype-mismatch): ")
    assert res.traceback is not None and "forward_error.py" in res.traceback
    assert "harness.py" not in res.traceback and "runpy" not in res.traceback
    assert res.first_forward is not None and res.first_forward["inputs"][0]["dtype"] == "float64"
    assert res.summary() == (
        f"RuntimeError at line {res.line}: mat1 and mat2 must have the same dtype, but got "
        "Double and Float [DG004]"
    )


def test_flag_conflict_names_dg016(cold: ColdRuns) -> None:
    res = cold["fused_foreach"]
    assert (res.status, res.rule) == ("error", "DG016")
    assert res.line == marker_line("fused_foreach.py", "ERROR-LINE")


def test_sys_exit_before_step_is_no_step(cold: ColdRuns) -> None:
    res = cold["sys_exit"]
    assert res.status == "no-step"
    assert res.exit_code == 3
    assert "sys.exit(3)" in (res.message or "")
    assert "leaving early" in res.stdout_tail


def test_os_exit_before_step_is_no_step(cold: ColdRuns) -> None:
    res = cold["os_exit"]
    assert res.status == "no-step"
    assert res.returncode == 0
    assert "os._exit" in (res.message or "")
    assert "bye" in res.stdout_tail


def test_script_that_never_steps(cold: ColdRuns) -> None:
    res = cold["never_steps"]
    assert res.status == "no-step"
    assert "without calling step()" in (res.message or "")
    assert res.loss is not None and res.loss["finite"] is True  # backward() was seen
    assert res.summary().startswith("No optimizer step: ")


def test_segfault_is_crashed_with_the_line(cold: ColdRuns) -> None:
    res = cold["segfault"]
    assert res.status == "crashed"
    assert res.signal == "SIGSEGV"
    assert res.returncode == -11
    assert res.line == marker_line("segfault.py", "CRASH-LINE")
    assert "about to crash" in res.stdout_tail


def test_spawned_child_dies_with_the_script(cold: ColdRuns) -> None:
    res = cold["spawn_child"]
    assert res.status == "no-step"
    pid = int((cold.tmp / "spawn.pid").read_text())
    assert pid_gone(pid), f"child {pid} outlived the verification"


def test_megabytes_of_output_are_drained_and_bounded(cold: ColdRuns) -> None:
    res = cold["megabytes"]
    assert res.status == "ok"
    assert res.stdout_bytes == 40000 * 100
    assert res.stderr_bytes == 1024 * 1024
    assert len(res.stdout_tail.encode()) <= 64 * 1024
    assert len(res.stderr_tail.encode()) <= 64 * 1024
    assert res.stdout_tail.endswith("x" * 99 + "\n")


def test_reading_stdin_sees_eof_not_a_hang(cold: ColdRuns) -> None:
    res = cold["reads_stdin"]
    assert res.status == "error"
    assert res.error_type == "EOFError"
    assert res.line == marker_line("reads_stdin.py", "STDIN-LINE")
    assert "read 0 bytes" in res.stdout_tail


def test_interpreter_without_torch(cold: ColdRuns) -> None:
    res = cold["no_torch"]
    assert res.status == "no-torch"
    assert "cannot import torch" in (res.message or "")
    assert res.duration_s < 30


def test_fp16_adam_warns_dg012(cold: ColdRuns) -> None:
    res = cold["fp16_adam"]
    assert res.status == "ok"
    assert res.step is not None and res.step["params_finite"] is False
    assert res.step["param_dtypes"] == {"float16": 1}
    assert [(w.kind, w.rule) for w in res.warnings] == [("nonfinite", "DG012")]
    assert "eps=1e-08 rounds to 0 in float16" in res.warnings[0].message
    assert "DG012" in res.summary()


def test_bf16_adam_warns_dg013(cold: ColdRuns) -> None:
    res = cold["bf16_adam"]
    assert res.status == "ok"
    assert res.step is not None
    assert res.step["params_changed"] == 0 and res.step["params_stalled"] == 1
    assert [(w.kind, w.rule) for w in res.warnings] == [("stalled", "DG013")]
    assert "did not change" in res.warnings[0].message
    assert res.step["params_finite"] is True


def test_device_cuda_without_cuda_is_emulated_and_says_so(cold: ColdRuns) -> None:
    """Without a usable GPU, --device cuda runs on emulated CUDA (issue 21) and says so: the
    report names the emulation and what it does not check; never a silent "cuda" result."""
    if cold.cuda_available():
        pytest.skip("CUDA is available here: --device cuda runs on the GPU instead")
    res = cold["cuda_requested"]
    if res.status == "no-cuda":  # emulation unsupported by this torch: the reason is given
        assert res.message is not None and "--device cuda was requested but" in res.message
        return
    assert res.emulated is True and res.device == "cuda"
    assert res.status == "ok", res.to_json()
    assert "(emulated)" in res.summary()
    assert res.not_checked and any("memory" in item for item in res.not_checked)


def test_device_cuda_runs_on_the_gpu(cold: ColdRuns) -> None:
    if not cold.cuda_available():
        pytest.skip("needs CUDA: torch.cuda.is_available() is False")
    res = cold["cuda_requested"]
    assert res.status == "ok", res.to_json()
    assert res.device == "cuda"
    assert res.step is not None and set(res.step["param_devices"]) == {"cuda:0"}
    assert res.memory.get("cuda_max_allocated_bytes", 0) > 0


def test_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    started = time.monotonic()
    res = run_verify(script("hang.py"), device="cpu", timeout=6.0, args=[str(pidfile)])
    elapsed = time.monotonic() - started
    assert res.status == "timeout"
    assert elapsed < 6.0 + 6.0
    assert "no optimizer step within 6 s" in (res.message or "")
    if "hanging" in res.stdout_tail:  # the script got as far as its loop (not still importing)
        assert res.line == marker_line("hang.py", "HANG-LINE")
        assert wait_for_file(pidfile, 1.0)
    if pidfile.exists():
        assert pid_gone(int(pidfile.read_text()))


def test_cancel_event_kills_the_run(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    cancel = threading.Event()
    box: list[object] = []
    thread = threading.Thread(
        target=lambda: box.append(
            run_verify(script("hang.py"), device="cpu", timeout=120.0, args=[str(pidfile)],
                       cancel_event=cancel)
        )
    )
    thread.start()
    assert wait_for_file(pidfile, 60.0), "the script never started"
    cancelled_at = time.monotonic()
    cancel.set()
    thread.join(30.0)
    assert not thread.is_alive()
    assert time.monotonic() - cancelled_at < 5.0
    res = box[0]
    assert getattr(res, "status", None) == "cancelled"
    assert pid_gone(int(pidfile.read_text()))


def test_missing_file_and_bad_arguments() -> None:
    res = run_verify("/nonexistent/train.py", device="cpu")
    assert (res.status, res.error_type) == ("error", "FileNotFoundError")
    with pytest.raises(ValueError):
        run_verify(script("good.py"), device="tpu")
    res = run_verify(script("good.py"), device="cpu", python="/nonexistent/python")
    assert res.status == "error" and "cannot start the interpreter" in (res.message or "")
