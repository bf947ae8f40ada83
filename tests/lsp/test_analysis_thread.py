"""The analysis thread owns the cyclic collector of a server process: garbage made while the
editor is busy is collected once it is quiet, never in the typing path."""

from __future__ import annotations

import gc
import threading
import time
import weakref

from dtypeguard.analysis import CheckResult
from dtypeguard.config import Config
from dtypeguard.lsp import documents
from dtypeguard.lsp.documents import AnalysisThread, Job


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _job(version: int) -> Job:
    return Job("file:///t.py", version, 0, "import torch\nx = torch.zeros(3)\n", None, Config())


def test_cyclic_garbage_is_collected_when_quiet_with_automatic_collection_off(monkeypatch) -> None:
    monkeypatch.setattr(documents, "IDLE_COLLECT_S", 0.2)
    done: list[int] = []
    finished = threading.Event()

    def on_done(job: Job, outcome: CheckResult | BaseException, elapsed: float) -> None:
        done.append(job.version)
        finished.set()

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        garbage = _Cycle()
        alive = weakref.ref(garbage)
        del garbage
        assert alive() is not None  # only the cyclic collector can free it
        worker = AnalysisThread(on_done)
        worker.submit(_job(1))
        assert finished.wait(30)
        deadline = time.monotonic() + 10
        while alive() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert alive() is None, "the quiet analysis thread did not collect"
        worker.stop()
    finally:
        if was_enabled:
            gc.enable()
    assert done == [1]


def test_no_collection_while_jobs_keep_coming(monkeypatch) -> None:
    """A collection waits for a quiet moment: jobs submitted back to back run first."""
    collections: list[float] = []
    monkeypatch.setattr(documents, "IDLE_COLLECT_S", 0.5)
    monkeypatch.setattr(AnalysisThread, "_collect", staticmethod(lambda: collections.append(time.monotonic())))
    finished: list[float] = []
    all_done = threading.Event()

    def on_done(job: Job, outcome: CheckResult | BaseException, elapsed: float) -> None:
        finished.append(time.monotonic())
        if job.version < 5:
            worker.submit(_job(job.version + 1))  # the next keystroke arrives at once
        else:
            all_done.set()

    worker = AnalysisThread(on_done)
    worker.submit(_job(1))
    assert all_done.wait(30)
    assert not collections or collections[0] > finished[-1]
    deadline = time.monotonic() + 5
    while not collections and time.monotonic() < deadline:
        time.sleep(0.05)
    worker.stop()
    assert len(collections) == 1 and collections[0] >= finished[-1] + 0.4


def test_garbage_made_without_any_analysis_is_collected_too(monkeypatch) -> None:
    """Hovers and verify runs allocate as well: the thread looks now and then."""
    monkeypatch.setattr(documents, "IDLE_POLL_S", 0.1)
    monkeypatch.setattr(documents, "IDLE_COLLECT_S", 0.1)
    monkeypatch.setattr(documents, "YOUNG_LIMIT", 10)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        worker = AnalysisThread(lambda job, outcome, elapsed: None)
        garbage = _Cycle()
        alive = weakref.ref(garbage)
        del garbage
        _ = [[] for _ in range(1000)]  # allocations the collector counts (lists are tracked)
        deadline = time.monotonic() + 10
        while alive() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        worker.stop()
        assert alive() is None
    finally:
        if was_enabled:
            gc.enable()
