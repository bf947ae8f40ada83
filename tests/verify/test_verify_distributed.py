"""A `torchrun` script (RANK/LOCAL_RANK/WORLD_SIZE from the launcher, `init_process_group("nccl")`,
DDP) verified on the CPU as a world of one process, cold and through the warm worker."""

from __future__ import annotations

import os

from verify_support import script

from dtypeguard.verify.runner import run_verify
from dtypeguard.verify.warm import WarmWorker


def _assert_one_process_world(res: object) -> None:
    assert res.status == "ok", res.to_json()  # type: ignore[attr-defined]
    assert res.step is not None and res.step["params_changed"] > 0  # type: ignore[attr-defined]
    note = " ".join(res.notes)  # type: ignore[attr-defined]
    assert "one-process world" in note and "LOCAL_RANK=0" in note and "gloo instead of nccl" in note, note


def test_torchrun_script_runs_as_one_process_world_cold() -> None:
    assert "LOCAL_RANK" not in os.environ
    _assert_one_process_world(run_verify(script("ddp_torchrun.py"), device="cpu", timeout=120))


def test_torchrun_script_runs_as_one_process_world_warm() -> None:
    worker = WarmWorker(device="cpu")
    try:
        worker.start(wait=True)
        res = run_verify(script("ddp_torchrun.py"), device="cpu", timeout=120, worker=worker)
        assert res.mode == "warm", res.notes
        _assert_one_process_world(res)
    finally:
        worker.close()


def test_scripts_that_are_not_distributed_get_no_world() -> None:
    res = run_verify(script("good.py"), device="cpu", timeout=120)
    assert res.status == "ok"
    assert not any("one-process world" in n for n in res.notes)
