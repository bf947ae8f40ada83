"""Verify contains what it runs: scripts that ignore SIGTERM, spin in C, fill memory, fork
SIGTERM-proof children, deadlock or print endlessly are stopped at the time limit with their
whole process tree, through a cold run and through the warm worker; afterwards no process of
theirs remains (checked in /proc), and the kill latency (time limit -> group gone) is measured.
`check` and `fix` never run the code they read.

(`tests/verify/` covers the polite cases: a sleeping script with one child, cancellation,
megabytes of output with a step.)"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dtypeguard.verify.process import TERM_GRACE_S
from dtypeguard.verify.runner import VerifyResult, WarmWorker, run_verify
from dtypeguard.verify.through import scratch_stem
from tests.reliability.support import alive, kill_all, read_pids, wait_gone

pytest.importorskip("torch")

COLD_TIMEOUT_S = 10.0  # a cold run imports torch first (about 3 s here, more under load)
WARM_TIMEOUT_S = 2.5
LATENCY_LIMIT_S = TERM_GRACE_S + 2.5  # SIGTERM, the grace period, SIGKILL, reaping

PROLOGUE = """
import os, re, resource, signal, sys, threading, time
from pathlib import Path
PIDS = Path(__file__).with_suffix(".pids")
def note():
    with open(PIDS, "a") as fh:
        fh.write(f"{os.getpid()}\\n")
note()
"""

SCRIPTS: dict[str, str] = {
    # SIGTERM ignored by the script itself: only SIGKILL ends it
    "ignores_sigterm": """
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            pass
    """,
    # a SIGTERM handler that never returns
    "sigterm_handler_hangs": """
        signal.signal(signal.SIGTERM, lambda *a: time.sleep(10**6))
        while True:
            time.sleep(0.01)
    """,
    # pure C loops: Python signal handlers never get to run
    "spins_in_c": """
        sum(range(10**13))
    """,
    "regex_backtracking": """
        re.match(r"(a+)+$", "a" * 64 + "b")
    """,
    # allocates until killed (bounded by RLIMIT_AS so this machine stays safe)
    "fills_memory": """
        size = int(Path("/proc/self/status").read_text().split("VmSize:")[1].split()[0]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size + (1 << 30), size + (1 << 30)))
        hoard = []
        while True:
            try:
                hoard.append(bytearray(32 << 20))
            except MemoryError:
                time.sleep(0.001)
    """,
    # a tree of children and grandchildren, all ignoring SIGTERM
    "forks_sigterm_proof_children": """
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for _ in range(3):
            if os.fork() == 0:
                if os.fork() == 0:
                    note()
                    while True:
                        time.sleep(0.01)
                note()
                while True:
                    pass
        while True:
            time.sleep(0.01)
    """,
    # a lock acquired twice, plus a thread waiting on it too
    "deadlocks": """
        lock = threading.Lock()
        lock.acquire()
        threading.Thread(target=lock.acquire, daemon=True).start()
        lock.acquire()
    """,
    # output without end, on both streams
    "prints_endlessly": """
        line = "x" * 1000
        while True:
            print(line)
            print(line, file=sys.stderr)
    """,
}
COLD = ("forks_sigterm_proof_children", "spins_in_c")  # one parallel round: torch imports dominate
MAX_LATENCY: dict[str, float] = {}


@dataclass
class Run:
    name: str
    mode: str
    timeout: float
    result: VerifyResult
    elapsed: float
    pids: list[int]
    left: list[int]  # processes still alive right after run_verify returned (+0.5 s)
    strays: list[int]  # any process whose command line or cwd names the script's folder

    @property
    def latency(self) -> float:
        return self.elapsed - self.timeout


def write_script(folder: Path, name: str) -> Path:
    """The script notes its pids beside the original (an absolute path): verify runs a scratch
    copy, in a scratch folder, so `__file__` is not the original."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    prologue = textwrap.dedent(PROLOGUE).replace('Path(__file__).with_suffix(".pids")', f"Path({str(path.with_suffix('.pids'))!r})")
    path.write_text(prologue + textwrap.dedent(SCRIPTS[name]), encoding="utf-8")
    return path


def strays_in(folder: Path, script: Path | None = None) -> list[int]:
    """Processes that still run with `folder` in their command line or as their cwd, or with
    the scratch folder verify made for `script` (its name starts with the script's stem)."""
    marks = [str(folder)] + ([scratch_stem(str(script))] if script is not None else [])
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if any(mark in cmdline or mark in cwd for mark in marks) and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def run_one(folder: Path, name: str, mode: str, worker: WarmWorker | None) -> Run:
    path = write_script(folder / f"{mode}_{name}", name)
    timeout = COLD_TIMEOUT_S if mode == "cold" else WARM_TIMEOUT_S
    started = time.monotonic()
    try:
        result = run_verify(str(path), device="cpu", timeout=timeout, worker=worker)
        elapsed = time.monotonic() - started
        pids = read_pids(path.with_suffix(".pids"))
        left = wait_gone(pids, 0.5)
        strays = strays_in(path.parent, path)
        return Run(name, mode, timeout, result, elapsed, pids, left, strays)
    finally:  # never leave anything behind, whatever the assertions say
        kill_all(p for p in read_pids(path.with_suffix(".pids")) if alive(p))
        kill_all(strays_in(path.parent, path))


@pytest.fixture(scope="module")
def warm_worker() -> Iterator[WarmWorker]:
    worker = WarmWorker(device="cpu")
    worker.start(wait=True, timeout=120)
    assert worker.ready, worker.failure
    yield worker
    worker.close()


@pytest.fixture(scope="module")
def cold_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    folder = tmp_path_factory.mktemp("cold")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(run_one, folder, name, "cold", None) for name in COLD}
        return {name: future.result() for name, future in futures.items()}


def check(run: Run, record_property: Any) -> None:
    res = run.result
    record_property("kill_latency_s", round(run.latency, 2))
    MAX_LATENCY[run.mode] = max(MAX_LATENCY.get(run.mode, 0.0), run.latency)
    print(f"\n{run.mode} {run.name}: {res.status} after {run.elapsed:.2f} s (limit {run.timeout:g} s, kill latency {run.latency:.2f} s)")
    assert run.pids, f"{run.name} never started (status {res.status}: {res.message})"
    assert res.status == "timeout", res.to_json()
    assert not run.left, f"processes of {run.name} outlived the run: {run.left}"
    assert not run.strays, f"processes still running in {run.name}'s folder: {run.strays}"
    assert 0 <= run.latency < LATENCY_LIMIT_S, f"killed {run.latency:.2f} s after the time limit"
    assert len(res.stdout_tail.encode()) <= 64 * 1024 and len(res.stderr_tail.encode()) <= 64 * 1024


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_warm_run_is_stopped_with_its_whole_tree(name: str, warm_worker: WarmWorker, tmp_path: Path, record_property: Any) -> None:
    run = run_one(tmp_path, name, "warm", warm_worker)
    check(run, record_property)
    assert run.result.mode == "warm"
    assert warm_worker.alive, "the worker survives a hostile run"
    if name == "forks_sigterm_proof_children":
        assert len(run.pids) == 7
    if name == "prints_endlessly":
        assert run.result.stdout_bytes > 1_000_000 and run.result.stderr_bytes > 1_000_000


@pytest.mark.parametrize("name", COLD)
def test_cold_run_is_stopped_with_its_whole_tree(name: str, cold_runs: dict[str, Run], record_property: Any) -> None:
    run = cold_runs[name]
    check(run, record_property)
    assert run.result.mode == "cold"
    if name == "forks_sigterm_proof_children":
        assert len(run.pids) == 7


DAEMON = """
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            note()
            while True:
                time.sleep(0.05)
        os._exit(0)
    while True:
        time.sleep(0.05)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the worker is a child subreaper on Linux only")
def test_a_daemon_that_leaves_the_session_is_killed_warm(tmp_path: Path, warm_worker: WarmWorker) -> None:
    """The warm worker is a child subreaper: the daemon is re-parented to it, not to init,
    and it kills it after the run."""
    run = _daemon_run(tmp_path, "warm", warm_worker)
    assert len(run.pids) == 2 and not run.left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="found through /proc on Linux only")
def test_a_daemon_that_leaves_the_session_is_killed_cold(tmp_path: Path) -> None:
    """A cold run's environment carries a mark; whatever still carries it after the run is
    killed, wherever it was re-parented."""
    run = _daemon_run(tmp_path, "cold", None)
    assert len(run.pids) == 2 and not run.left


def _daemon_run(tmp_path: Path, mode: str, worker: WarmWorker | None) -> Run:
    SCRIPTS["daemonizes"] = DAEMON
    try:
        return run_one(tmp_path, "daemonizes", mode, worker)
    finally:
        del SCRIPTS["daemonizes"]


def test_kill_latency_summary() -> None:
    """Runs last in this module: prints the worst latencies (for docs/reliability.md)."""
    if MAX_LATENCY:
        print("\nworst kill latency: " + ", ".join(f"{mode} {value:.2f} s" for mode, value in sorted(MAX_LATENCY.items())))


def test_a_non_finite_time_limit_is_refused(tmp_path: Path) -> None:
    path = write_script(tmp_path, "ignores_sigterm")
    for timeout in (float("inf"), float("nan"), 0.0):
        with pytest.raises(ValueError, match="finite"):
            run_verify(str(path), device="cpu", timeout=timeout)
    assert not read_pids(path.with_suffix(".pids")), "nothing was started"


# ---------------------------------------------------------------------------- no execution
TRAP = """
import pathlib
pathlib.Path(__file__).with_suffix(".ran").write_text("executed")
import torch, numpy as np
from torch import nn
x = torch.from_numpy(np.zeros((2, 3)))
nn.Linear(3, 1)(x)
"""


def test_check_and_fix_never_execute_the_code(tmp_path: Path) -> None:
    path = tmp_path / "trap.py"
    path.write_text(TRAP, encoding="utf-8")
    for args in (["check", str(path)], ["fix", "--diff", str(path)], ["fix", "--unsafe-fixes", str(path)], ["rules"]):
        proc = subprocess.run([sys.executable, "-m", "dtypeguard", *args], capture_output=True, text=True, timeout=120, cwd=tmp_path)
        assert proc.returncode in (0, 1), proc.stderr
    assert not path.with_suffix(".ran").exists(), "dtypeguard executed the code it was asked to check"
    assert "from_numpy(np.zeros((2, 3))).float()" in path.read_text(encoding="utf-8")
