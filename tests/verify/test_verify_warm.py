"""The warm worker: same results as a cold run, its own process group per run, cold fallback."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path

import pytest
from verify_support import (
    ColdRuns,
    leftovers,
    marker_line,
    no_torch_python,
    pid_gone,
    script,
    wait_for_file,
)

from dtypeguard.verify.runner import VerifyResult, WarmWorker, run_verify

# Fields that must not depend on how the script was started.
STABLE = ("status", "device", "path", "line", "error_type", "message", "rule", "exit_code")
STEP_STABLE = (
    "optimizer", "options", "param_count", "param_dtypes", "param_devices", "grad_dtypes",
    "state_dtypes", "params_finite", "params_changed", "params_stalled", "stalled_elements",
)


def _same(cold: VerifyResult, warm: VerifyResult) -> None:
    assert warm.mode == "warm", warm.notes
    for key in STABLE:
        assert getattr(warm, key) == getattr(cold, key), key
    assert [w.rule for w in warm.warnings] == [w.rule for w in cold.warnings]
    if cold.step is not None:
        assert warm.step is not None
        for key in STEP_STABLE:
            assert warm.step[key] == cold.step[key], key
    assert warm.first_forward == cold.first_forward
    assert (warm.loss or {}).get("dtype") == (cold.loss or {}).get("dtype")


def _scratch_named(stdout: str | None) -> str:
    """Each run has its own scratch folder (mkdtemp): "cwd=/tmp/.../good_1a2b-x7q" -> "...-*"."""
    return re.sub(r"^(cwd=.*)-[A-Za-z0-9_]+$", r"\1-*", stdout or "", flags=re.M)


@pytest.mark.parametrize(
    "name", ["good", "forward_error", "fp16_adam", "bf16_adam", "sys_exit", "os_exit", "segfault",
             "reads_stdin"]
)
def test_warm_result_equals_cold(name: str, cold: ColdRuns, worker: WarmWorker) -> None:
    args = ["--epochs", "3", "two words"] if name == "good" else []
    warm = run_verify(script(f"{name}.py"), device="cpu", worker=worker, args=args, timeout=60.0)
    _same(cold[name], warm)
    assert _scratch_named(warm.stdout_tail) == _scratch_named(cold[name].stdout_tail)
    assert warm.duration_s < 10.0


def test_warm_run_is_fast_and_flags_preloaded_torch(worker: WarmWorker) -> None:
    res = run_verify(script("good.py"), device="cpu", worker=worker)
    assert res.status == "ok" and res.mode == "warm"
    assert res.import_torch_s == 0.0
    assert res.duration_s < 5.0  # a fork, not a torch import (about 0.1 s when idle)


def test_warm_timeout_kills_the_forked_group_and_keeps_the_worker(
    worker: WarmWorker, tmp_path: Path
) -> None:
    pidfile = tmp_path / "child.pid"
    started = time.monotonic()
    res = run_verify(script("hang.py"), device="cpu", worker=worker, timeout=2.0, args=[str(pidfile)])
    assert res.status == "timeout" and res.mode == "warm"
    assert time.monotonic() - started < 8.0
    assert res.line == marker_line("hang.py", "HANG-LINE")  # where it was stuck
    assert wait_for_file(pidfile, 1.0)
    assert pid_gone(int(pidfile.read_text()))
    assert worker.alive
    again = run_verify(script("good.py"), device="cpu", worker=worker)
    assert (again.status, again.mode) == ("ok", "warm")


def test_worker_for_another_interpreter_is_not_used(worker: WarmWorker) -> None:
    python = no_torch_python()
    if python is None:
        pytest.skip("no interpreter without torch on this machine")
    res = run_verify(script("good.py"), device="cpu", worker=worker, python=python)
    assert (res.mode, res.status) == ("cold", "no-torch")
    assert any("ran cold" in note for note in res.notes)
    assert not worker.matches(None, "cuda") and worker.matches(None, "cpu")


def test_killed_worker_falls_back_to_cold(spare_worker: tuple[WarmWorker, Path]) -> None:
    warm, tmp = spare_worker
    assert warm.wait_ready(180.0), warm.failure
    assert warm.pid is not None
    first = run_verify(script("sys_exit.py"), device="cpu", worker=warm)
    assert first.mode == "warm" and first.status == "no-step"
    os.kill(warm.pid, signal.SIGKILL)
    assert pid_gone(warm.pid)
    res = run_verify(script("sys_exit.py"), device="cpu", worker=warm)
    assert res.mode == "cold"
    assert res.status == "no-step"
    assert any("warm worker unavailable" in note for note in res.notes)
    assert not warm.alive
    warm.close()
    assert leftovers(tmp) == []  # no temp files left behind by the worker or its children


def test_worker_still_importing_is_kept_and_close_leaves_no_process() -> None:
    warm = WarmWorker(device="cpu")
    warm.start(wait=False)
    pid = warm.pid
    assert pid is not None
    try:
        res = run_verify(script("sys_exit.py"), device="cpu", worker=warm, timeout=0.3)
        assert res.mode == "cold" and res.status == "timeout"  # too short for a torch import
        assert any("still starting" in note for note in res.notes), res.notes
        assert warm.alive  # not killed for being slow to start
    finally:
        warm.close()
    assert pid_gone(pid)
    assert not warm.alive


def test_cancel_event_kills_a_warm_run(worker: WarmWorker, tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    cancel = threading.Event()
    box: list[VerifyResult] = []
    thread = threading.Thread(
        target=lambda: box.append(
            run_verify(script("hang.py"), device="cpu", worker=worker, timeout=60.0,
                       args=[str(pidfile)], cancel_event=cancel)
        )
    )
    thread.start()
    assert wait_for_file(pidfile, 20.0)
    cancel.set()
    thread.join(15.0)
    assert not thread.is_alive()
    assert (box[0].status, box[0].mode) == ("cancelled", "warm")
    assert pid_gone(int(pidfile.read_text()))
    assert worker.alive
