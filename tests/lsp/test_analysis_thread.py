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


TEXT = 'import torch\n\n\ndef f():\n    x = torch.zeros(3)\n    return x.double()\n\n\ny = f().half()\ntorch.set_default_tensor_type("torch.FloatTensor")\n'


def _text_job(version: int, text: str) -> Job:
    return Job("file:///t.py", version, 0, text, None, Config())


def test_a_blank_line_is_answered_provisionally_then_analysed_when_quiet(monkeypatch) -> None:
    """Enter in a function: the last findings moved down come first (diagnostics at once), the
    real analysis of the same text once the editor has been quiet; a newer edit drops it."""
    monkeypatch.setattr(documents, "CONFIRM_QUIET_S", 0.3)
    seen: list[tuple[int, bool, float]] = []
    results: list[CheckResult] = []
    arrived = threading.Condition()

    def on_done(job: Job, outcome: CheckResult | BaseException, elapsed: float) -> None:
        assert isinstance(outcome, CheckResult)
        with arrived:
            results.append(outcome)
            seen.append((job.version, outcome.provisional, time.monotonic()))
            arrived.notify_all()

    def wait_for(count: int) -> None:
        with arrived:
            assert arrived.wait_for(lambda: len(seen) >= count, 30)

    worker = AnalysisThread(on_done)
    worker.submit(_text_job(1, TEXT))
    wait_for(1)
    entered = TEXT.replace("    return", "\n    return")
    worker.submit(_text_job(2, entered))
    wait_for(3)
    assert [(v, p) for v, p, _ in seen] == [(1, False), (2, True), (2, False)]
    assert seen[2][2] - seen[1][2] >= 0.25  # the real analysis waited for a quiet moment
    from dtypeguard.analysis import check_source

    twice = entered.replace("    return", "\n    return")
    worker.submit(_text_job(3, twice))
    wait_for(4)
    worker.submit(_text_job(4, twice + "w = z.float()\n"))  # before the real analysis of 3 runs
    wait_for(5)
    time.sleep(0.6)
    worker.stop()
    assert [(v, p) for v, p, _ in seen[3:]] == [(3, True), (4, False)]
    shown = [(f.code, f.span, f.message) for f in results[3].findings]
    assert shown and shown == [(f.code, f.span, f.message) for f in check_source(twice).findings]
