"""Verify tests run real subprocesses and torch imports dominate their cost, so the per-status
cold runs (and the two CLI runs) are made once, three at a time, and shared; each test then
asserts on its own result. The warm workers start importing while that batch runs."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from verify_support import ColdRuns, cli, no_torch_python, script

from dtypeguard.verify.runner import WarmWorker, run_verify

COLD_SCRIPTS = (
    "good", "never_steps", "sys_exit", "os_exit", "forward_error", "segfault",
    "megabytes", "reads_stdin", "fp16_adam", "bf16_adam", "fused_foreach",
)


def _jobs(tmp: Path) -> dict[str, Callable[[], object]]:
    def cold_run(path: str, device: str = "cpu", **kwargs: object) -> Callable[[], object]:
        return lambda: run_verify(path, device=device, timeout=120.0, **kwargs)  # type: ignore[arg-type]

    jobs: dict[str, Callable[[], object]] = {
        name: cold_run(script(f"{name}.py")) for name in COLD_SCRIPTS
    }
    jobs["good"] = cold_run(script("good.py"), args=["--epochs", "3", "two words"])
    jobs["spawn_child"] = cold_run(script("spawn_child.py"), args=[str(tmp / "spawn.pid")])
    jobs["cuda_requested"] = cold_run(script("good.py"), device="cuda")
    python = no_torch_python()
    if python is not None:
        jobs["no_torch"] = cold_run(script("good.py"), python=python)
    (tmp / "cli_tmp").mkdir()
    jobs["cli_json"] = lambda: cli(
        "--format", "json", "--device", "cpu", script("good.py"), "--", "-v", "x y",
        tmp=tmp / "cli_tmp",
    )
    jobs["cli_text"] = lambda: cli("--device", "cpu", "--timeout", "120", script("forward_error.py"))
    return jobs


@pytest.fixture(scope="session")
def worker() -> Iterator[WarmWorker]:
    """The shared cpu worker; it imports torch in the background until first used."""
    warm = WarmWorker(device="cpu")
    warm.start(wait=False)
    yield warm
    warm.close()


@pytest.fixture(scope="session")
def spare_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[WarmWorker, Path]]:
    """A worker a test may kill, with its own TMPDIR to check for leftovers."""
    tmp = tmp_path_factory.mktemp("spare_tmp")
    warm = WarmWorker(device="cpu", env={**os.environ, "TMPDIR": str(tmp)})
    warm.start(wait=False)
    yield warm, tmp
    warm.close()


@pytest.fixture(scope="session")
def cold(
    tmp_path_factory: pytest.TempPathFactory,
    worker: WarmWorker,
    spare_worker: tuple[WarmWorker, Path],
) -> ColdRuns:
    tmp = tmp_path_factory.mktemp("cold")
    jobs = _jobs(tmp)
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        return ColdRuns({name: future.result() for name, future in futures.items()}, tmp)
