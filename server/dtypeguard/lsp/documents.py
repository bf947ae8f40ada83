"""Open documents: debounced analysis on one worker thread, stale results dropped.

Every change restarts the document's debounce timer; when it fires, the document's text is
snapshotted into a job for the analysis thread. The thread keeps only the newest pending job
per document (an edit storm costs one analysis per quiet moment, not one per keystroke) and
runs one analysis at a time (the engine is pure Python: with the GIL, more threads would only
slow each other down). A finished analysis comes back to the event loop and is kept only if
its document is still open at that version and configuration generation.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from lsprotocol import types

from dtypeguard.analysis import Analyzer, CheckResult, check_source
from dtypeguard.config import Config
from dtypeguard.engine.imports import read_file
from dtypeguard.lsp.convert import Lines

log = logging.getLogger(__name__)

DEFAULT_MAX_LINES = 100_000


@dataclass(frozen=True)
class Job:
    uri: str
    version: int
    generation: int
    text: str
    path: str | None
    config: Config
    max_lines: int = 0
    sources: dict[str, str] = field(default_factory=dict)  # the other open documents' texts by path: imports read these first
    # "": a provisional result first if there is one (`Analyzer.shifted`); CONFIRM: the real
    # analysis owed after a provisional one, run once the editor is quiet; NOW: run it at once
    mode: str = ""


CONFIRM, NOW = "confirm", "now"
CONFIRM_QUIET_S = 0.3  # quiet time before a provisional result is replaced by the real analysis


def provisional(job: Job, checker: Analyzer | None) -> CheckResult | None:
    """The last findings moved with the lines, when the edit only added or removed blank or
    comment lines (`Analyzer.shifted`): published at once, the real analysis follows."""
    if checker is None or job.mode or (job.max_lines > 0 and job.text.count("\n") + 1 > job.max_lines):
        return None
    return checker.shifted(job.text, job.path, job.config)


def analyse(job: Job, checker: Analyzer | None = None) -> CheckResult:
    """`check_source` (through the document's incremental checker when it has one), unless
    the text is beyond the line limit (a 50,000-line file takes about 2 s here: beyond the
    limit, the editor would wait too long for too little)."""
    if job.max_lines > 0:
        count = job.text.count("\n") + 1
        if count > job.max_lines:
            from dtypeguard.findings import Span
            from dtypeguard.rules import PARSE_ERROR

            message = (
                f"not analysed: {count} lines is above the language server's limit of "
                f"{job.max_lines} (`dtypeguard lsp --max-lines`; `dtypeguard check` has no limit)"
            )
            return CheckResult([PARSE_ERROR.finding(message, Span(1, 0, 1, 0))], parsed=False)
    sources = job.sources

    def reader(path: str) -> str | None:
        return sources[path] if path in sources else read_file(path)  # an open buffer before the disk

    if checker is not None:
        return checker.check(job.text, job.path, job.config, reader)
    return check_source(job.text, job.path, job.config, reader)


@dataclass
class Analysis:
    """One finished analysis: the result and the exact text it describes."""

    version: int
    generation: int
    text: str
    lines: Lines
    result: CheckResult
    elapsed_s: float

    @property
    def usable(self) -> bool:
        """Parsed and analysed without an internal error: its findings are the truth."""
        return self.result.parsed and not self.result.internal_error

    @property
    def provisional(self) -> bool:
        """Diagnostics moved with the lines until the real analysis comes (`Analyzer.shifted`)."""
        return self.result.provisional


@dataclass
class DocState:
    uri: str
    version: int
    path: str | None
    latest: Analysis | None = None  # the newest analysis kept (may be a parse failure)
    good: Analysis | None = None  # the newest analysis of text that parsed
    timer: asyncio.TimerHandle | None = None
    submitted: tuple[int, int] | None = None  # (version, generation) handed to the thread
    waiters: list[asyncio.Future[Analysis]] = field(default_factory=list)
    verify_diagnostics: list[types.Diagnostic] = field(default_factory=list)
    verify_epoch: int = 0
    roots_epoch: int = 0  # bumped when other documents' findings rooted in this one change
    imports: frozenset[str] = frozenset()  # the project's files its last analysis imported

    def current(self, generation: int) -> Analysis | None:
        a = self.latest
        if a is not None and a.version == self.version and a.generation == generation and not a.provisional:
            return a
        return None


IDLE_COLLECT_S = 1.0  # quiet time before the analysis thread collects cyclic garbage
COLLECT_EVERY = 200  # analyses between collections when the editor is never quiet (~20k cyclic objects per 32)
IDLE_POLL_S = 10.0  # with no analysis owed, how often the thread looks at other allocations
YOUNG_LIMIT = 100_000  # allocations since the last collection that make one worth it
COLLECT, STOP = "collect", "stop"


class AnalysisThread:
    """A daemon thread running jobs, newest-per-document first come first served.

    It also owns the cyclic garbage collector of a server process (`lsp.cmd` turns automatic
    collection off): an analysis allocates hundreds of thousands of objects, and the automatic
    collection that followed each one walked them all, in the typing path, for about a third
    of the analysis time. Nearly all of them are freed by reference counting anyway; the rest
    is collected here once the editor has been quiet for a second (or every `COLLECT_EVERY`
    analyses during a long storm of edits), where nobody waits for it.
    """

    def __init__(self, done: Callable[[Job, CheckResult | BaseException, float], None]) -> None:
        self._done = done
        self._pending: dict[str, Job] = {}
        self._checkers: dict[str, Analyzer] = {}  # per open document; under _cond
        self._cond = threading.Condition()
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="dtypeguard-analysis", daemon=True)
        self._thread.start()

    def submit(self, job: Job) -> None:
        with self._cond:
            self._pending.pop(job.uri, None)  # re-insert: keep first-come order fair
            self._pending[job.uri] = job
            self._cond.notify()

    def discard(self, uri: str) -> None:
        with self._cond:
            self._pending.pop(uri, None)
            self._checkers.pop(uri, None)

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._pending.clear()
            self._checkers.clear()
            self._cond.notify()

    def _next(self, owed: int) -> Job | str:
        """The next job, or COLLECT when garbage is owed and it is time, or STOP."""
        with self._cond:
            if owed >= COLLECT_EVERY:
                return COLLECT
            while not self._pending and not self._stopped:
                # garbage: from analyses, or from the rest of the server (hovers, verify runs)
                garbage = owed > 0 or gc.get_count()[0] > YOUNG_LIMIT
                quiet = not self._cond.wait(IDLE_COLLECT_S if garbage else IDLE_POLL_S)
                if quiet and garbage and not self._pending and not self._stopped:
                    return COLLECT
            if self._stopped:
                return STOP
            while all(job.mode == CONFIRM for job in self._pending.values()):
                # only real analyses owed after provisional results: they wait for a quiet moment
                if not self._cond.wait(CONFIRM_QUIET_S) or self._stopped or not self._pending:
                    break
            if self._stopped:
                return STOP
            if not self._pending:
                return self._next(owed)
            first = next((uri for uri, job in self._pending.items() if job.mode != CONFIRM), next(iter(self._pending)))
            return self._pending.pop(first)

    def _checker(self, uri: str) -> Analyzer:
        with self._cond:
            return self._checkers.setdefault(uri, Analyzer())

    def _loop(self) -> None:
        owed = 0  # analyses since the last collection
        while True:
            job = self._next(owed)
            if job == STOP:
                return
            if not isinstance(job, Job):
                owed = 0
                self._collect()
                continue
            owed += 1
            started = time.perf_counter()
            outcome: CheckResult | BaseException
            try:
                early = provisional(job, self._checker(job.uri))
                if early is not None:
                    with self._cond:  # the real analysis is owed, unless a newer edit comes first
                        self._pending.setdefault(job.uri, replace(job, mode=CONFIRM))
                    outcome = early
                else:
                    outcome = analyse(job, self._checker(job.uri))
            except BaseException as exc:
                outcome = exc
            try:
                self._done(job, outcome, time.perf_counter() - started)
            except Exception:  # the loop is gone (shutting down)
                log.debug("analysis result dropped", exc_info=True)

    @staticmethod
    def _collect() -> None:
        started = time.perf_counter()
        found = gc.collect()
        log.debug("collected %d objects in %.0f ms", found, (time.perf_counter() - started) * 1000)


def _real(path: str) -> str:
    """A path as the import resolution spells it (absolute, links resolved)."""
    try:
        return str(Path(path).resolve())
    except OSError:
        return path


class Documents:
    """The open documents and their analyses (all methods run on the event loop)."""

    def __init__(
        self,
        text_of: Callable[[str], str],
        config_for: Callable[[str | None], Config],
        on_analysis: Callable[[DocState, Analysis], None],
        on_error: Callable[[str, BaseException], None],
    ) -> None:
        self.docs: dict[str, DocState] = {}
        self.generation = 0
        self.debounce_s = 0.2
        self.max_lines = DEFAULT_MAX_LINES
        self._text_of = text_of
        self._config_for = config_for
        self._on_analysis = on_analysis
        self._on_error = on_error
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: AnalysisThread | None = None

    # ---------------------------------------------------------------- life cycle
    def _worker(self) -> AnalysisThread:
        if self._thread is None:
            self._loop = asyncio.get_running_loop()
            self._thread = AnalysisThread(self._from_thread)
        return self._thread

    def close_all(self) -> None:
        for state in self.docs.values():
            if state.timer is not None:
                state.timer.cancel()
            for waiter in state.waiters:
                if not waiter.done():
                    waiter.cancel()
        self.docs.clear()
        if self._thread is not None:
            self._thread.stop()

    # ---------------------------------------------------------------- events
    def open(self, uri: str, version: int, path: str | None) -> DocState:
        old = self.docs.pop(uri, None)
        if old is not None and old.timer is not None:
            old.timer.cancel()
        state = DocState(uri=uri, version=version, path=path)
        self.docs[uri] = state
        self.submit(uri)
        return state

    def change(self, uri: str, version: int) -> DocState | None:
        state = self.docs.get(uri)
        if state is None:
            return None
        state.version = version
        state.verify_diagnostics = []  # a runtime error's line means nothing after an edit
        self._schedule(state)
        if state.path:
            for other in self.docs.values():  # open files that import this one see the edit too
                if other is not state and _real(state.path) in other.imports:
                    other.submitted = None
                    self._schedule(other)
        return state

    def close(self, uri: str) -> DocState | None:
        state = self.docs.pop(uri, None)
        if state is None:
            return None
        if state.timer is not None:
            state.timer.cancel()
        if self._thread is not None:
            self._thread.discard(uri)
        for waiter in state.waiters:
            if not waiter.done():
                waiter.set_exception(KeyError(uri))
        return state

    def reanalyse_all(self) -> None:
        """The configuration changed: every open document is analysed again, now."""
        self.generation += 1
        for uri in list(self.docs):
            self.submit(uri)

    def _schedule(self, state: DocState) -> None:
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        if self.debounce_s <= 0:
            self.submit(state.uri)
            return
        loop = asyncio.get_running_loop()
        state.timer = loop.call_later(self.debounce_s, self.submit, state.uri)

    def submit(self, uri: str, mode: str = "") -> None:
        state = self.docs.get(uri)
        if state is None:
            return
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        key = (state.version, self.generation)
        if state.submitted == key and not mode:
            return
        state.submitted = key
        try:
            text = self._text_of(uri)
            config = self._config_for(state.path)
        except Exception as exc:
            state.submitted = None
            self._on_error(uri, exc)
            return
        self._worker().submit(Job(uri, state.version, self.generation, text, state.path, config, self.max_lines, self._open_sources(uri), mode))

    def _open_sources(self, uri: str) -> dict[str, str]:
        """The texts of the other open documents, by path, as they are now (taken on the event
        loop, so the analysis thread reads a consistent copy)."""
        out: dict[str, str] = {}
        for other_uri, other in self.docs.items():
            if other_uri == uri or not other.path:
                continue
            try:
                out[_real(other.path)] = self._text_of(other_uri)
            except Exception:  # not synced yet: the disk's text will do
                continue
        return out

    async def analysis(self, uri: str, timeout: float = 30.0) -> Analysis:
        """The analysis of the document's current text (waits for it; KeyError if not open)."""
        state = self.docs.get(uri)
        if state is None:
            raise KeyError(uri)
        found = state.current(self.generation)
        if found is not None:
            return found
        waiter: asyncio.Future[Analysis] = asyncio.get_running_loop().create_future()
        state.waiters.append(waiter)
        latest = state.latest
        if latest is not None and latest.provisional and (latest.version, latest.generation) == (state.version, self.generation):
            self.submit(uri, NOW)  # the real analysis of this text, now
        else:
            self.submit(uri)  # no debounce for someone waiting
        try:
            return await asyncio.wait_for(waiter, timeout)
        finally:
            with contextlib.suppress(ValueError):
                state.waiters.remove(waiter)

    # ---------------------------------------------------------------- results
    def _from_thread(self, job: Job, outcome: CheckResult | BaseException, elapsed: float) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._finished, job, outcome, elapsed)

    def _finished(self, job: Job, outcome: CheckResult | BaseException, elapsed: float) -> None:
        state = self.docs.get(job.uri)
        if state is None:
            return
        if isinstance(outcome, BaseException):
            if state.submitted == (job.version, job.generation):
                state.submitted = None
            for waiter in state.waiters:
                if not waiter.done():
                    waiter.set_exception(RuntimeError(f"analysis failed: {outcome!r}"))
            self._on_error(job.uri, outcome)
            return
        if job.version != state.version or job.generation != self.generation:
            return  # stale: a newer job is pending or scheduled
        log.debug("analysed %s v%d in %.0f ms%s", job.uri, job.version, elapsed * 1000, " (provisional)" if outcome.provisional else "")
        before = state.latest
        analysis = Analysis(job.version, job.generation, job.text, Lines(job.text), outcome, elapsed)
        state.latest = analysis
        if analysis.provisional:  # diagnostics only: the real analysis is on its way
            self._on_analysis(state, analysis)
            return
        state.imports = frozenset(outcome.dependencies)
        if analysis.usable:
            state.good = analysis
        for waiter in state.waiters:
            if not waiter.done():
                waiter.set_result(analysis)
        if before is not None and before.provisional and before.version == job.version and before.generation == job.generation and before.text == job.text:
            if _same_diagnostics(before.result, outcome):
                return  # what was published stands
        self._on_analysis(state, analysis)


def _same_diagnostics(shown: CheckResult, real: CheckResult) -> bool:
    """Do the real findings show as the provisional ones did (their fixes aside)?"""
    strip = [replace(f, fixes=()) for f in real.findings]
    return real.parsed and not real.internal_error and strip == shown.findings
