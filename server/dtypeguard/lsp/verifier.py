"""Verify runs as the server keeps them: runs going, results per (document, device), warm workers.

A run executes user code, so it happens only on an explicit command, in a daemon thread (the
runner owns the subprocess and its process group), with a cancel event that shutdown, exit, a
cancelled request or a cancelled progress all set. Warm workers are started lazily, one per
(interpreter, device), and closed on shutdown. A result becomes the lens titles here and, by
`verify_diagnostic`/`warning_diagnostics`, diagnostics at its lines.

No handler lives here: the `Session` owns one `Verifier`, and `lens.py` (the lenses) and
`verify.py` (the command) read and drive it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types

from dtypeguard.findings import Span
from dtypeguard.lsp.background import spawn
from dtypeguard.lsp.convert import VERIFY_SOURCE, Lines, rule_url, to_client_col

if TYPE_CHECKING:
    from dtypeguard.verify.runner import VerifyResult, WarmWorker

log = logging.getLogger(__name__)

VERIFY_COMMAND = "dtypeguard.verify"
FIX_VERIFY_COMMAND = "dtypeguard.fixAndVerify"  # fixverify.py: the safe fixes, kept only if the fixed text runs
CANCEL_FIX_VERIFY_COMMAND = "dtypeguard.cancelFixAndVerify"
FIX_VERIFY_LENS = "Fix and verify"
DEVICE_LABEL = {"cpu": "CPU", "cuda": "GPU"}
THROUGH = "through"  # third argument of VERIFY_COMMAND: run-through mode; its results' key
THROUGH_BATCHES = 2


# A result's look per outcome (VerifyResult.outcome): codicons for VS Code-family clients,
# plain symbols for the others (Neovim shows a lens title as text).
CODICON = {"ok": "$(pass)", "warning": "$(warning)", "error": "$(error)", "timeout": "$(watch)",
           "no-step": "$(circle-slash)", "inconclusive": "$(question)", "stale": "$(history)"}
SYMBOL = {"ok": "✓", "warning": "⚠", "error": "✗", "timeout": "⏱", "no-step": "∅", "inconclusive": "?", "stale": "↻"}


@dataclass
class Verifier:
    results: dict[tuple[str, str], VerifyResult] = field(default_factory=dict)  # (uri, device)
    # the document version each result ran on: a later edit makes it stale (key as `results`)
    versions: dict[tuple[str, str], int | None] = field(default_factory=dict)
    codicons: bool = True  # the client renders `$(name)` icons (VS Code and its forks)
    stale: set[str] = field(default_factory=set)  # documents edited since their last result
    running: dict[str, tuple[str, threading.Event]] = field(default_factory=dict)  # uri -> (device, cancel)
    threads: set[threading.Thread] = field(default_factory=set)
    workers: dict[tuple[str, str], WarmWorker] = field(default_factory=dict)
    closed: bool = False
    phases: dict[str, str] = field(default_factory=dict)  # uri -> last run-through phase reached
    # the one fix-and-verify going (uri, cancel): a second request is refused while it runs
    fixing: tuple[str, threading.Event] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------------ lenses
    def icon(self, outcome: str) -> str:
        return (CODICON if self.codicons else SYMBOL).get(outcome, "")

    def is_stale(self, uri: str, key: str, version: int | None) -> bool:
        """The result under (uri, key) ran on another version of the document than `version`."""
        ran_on = self.versions.get((uri, key))
        return (uri, key) in self.results and ran_on is not None and version is not None and ran_on != version

    def has_results(self, uri: str) -> bool:
        return any(k[0] == uri for k in self.results)

    def stale_since(self, uri: str) -> bool:
        """The document was edited since its last result (already announced)."""
        return uri in self.stale

    def mark_stale(self, uri: str) -> None:
        self.stale.add(uri)

    def lenses(
        self, uri: str, sites: list[tuple[Span, str]], lines: Lines, encoding: str, version: int | None = None,
        fixable: bool = False,
    ) -> list[types.CodeLens]:
        """The verify lenses at each optimizer; with `fixable` (the file has safe fixes), a
        "Fix and verify" lens after those of the first one."""
        out: list[types.CodeLens] = []
        for index, (span, _cls) in enumerate(sites):
            line0 = max(0, min(span.line - 1, len(lines) - 1))
            col = to_client_col(lines.text(line0), span.col, encoding)
            rng = types.Range(start=types.Position(line0, col), end=types.Position(line0, col))
            for device in ("cpu", "cuda"):
                out.append(types.CodeLens(range=rng, command=types.Command(
                    title=self.title(uri, device, version), command=VERIFY_COMMAND, arguments=[uri, device])))
            # the run-through uses the configured device (None: the server's verifyDevice)
            out.append(types.CodeLens(range=rng, command=types.Command(
                title=self.title(uri, THROUGH, version), command=VERIFY_COMMAND, arguments=[uri, None, THROUGH])))
            if fixable and index == 0:
                out.append(types.CodeLens(range=rng, command=types.Command(
                    title=self.fix_title(uri), command=FIX_VERIFY_COMMAND, arguments=[uri])))
        return out

    def fix_title(self, uri: str) -> str:
        fixing = self.fixing
        return "Fixing and verifying…" if fixing is not None and fixing[0] == uri else FIX_VERIFY_LENS

    def title(self, uri: str, device: str, version: int | None = None) -> str:
        """The lens title: what to click, what is running, or the last result with its outcome's
        icon; after an edit, the result is marked as one of an earlier version."""
        if device == THROUGH:
            running = self.running.get(uri)
            if running is not None and running[0] == THROUGH:
                phase = self.phases.get(uri)
                return f"Running through… {phase}" if phase else "Running through…"
            result = self.results.get((uri, THROUGH))
            if result is None:
                return "Verify run-through"
            return self._shown(uri, THROUGH, result, version, "run-through")
        label = DEVICE_LABEL[device]
        running = self.running.get(uri)
        if running is not None and running[0] in (device, "auto"):
            return f"Verifying on {label}…"
        result = self.results.get((uri, device))
        if result is None:
            return f"Verify on {label}" + (" (emulated)" if device == "cuda" and self.no_gpu() else "")
        return self._shown(uri, device, result, version, f"on {label}")

    def _shown(self, uri: str, key: str, result: VerifyResult, version: int | None, what: str) -> str:
        if self.is_stale(uri, key, version):
            return f"{self.icon('stale')} Verify {what} again (edited since: {result.outcome})"
        return f"{self.icon(result.outcome)} {result.summary()}"

    def no_gpu(self) -> bool:
        """A warm worker's torch is a CPU-only build, so a GPU run is emulated (the lens says
        so before the first click; the CPU worker starts when the lenses first show)."""
        return any(w.emulated_cuda for w in list(self.workers.values()))

    def forget(self, uri: str) -> None:
        self.stale.discard(uri)
        for key in [k for k in self.results if k[0] == uri]:
            del self.results[key]
            self.versions.pop(key, None)

    # ------------------------------------------------------------------ runs
    def _worker(self, python: str | None, device: str) -> WarmWorker | None:
        """The warm worker for (python, device), started lazily; None if unavailable."""
        try:
            from dtypeguard.verify.runner import WarmWorker
        except Exception as exc:
            log.warning("warm worker unavailable: %r", exc)
            return None
        key = (os.path.realpath(python or sys.executable), device)
        with self._lock:
            if self.closed:
                return None
            worker = self.workers.get(key)
            if worker is None:
                worker = WarmWorker(python=python, device=device)
                self.workers[key] = worker
        if not worker.alive and worker.failure is None:
            try:
                worker.start(wait=False)
            except Exception as exc:
                log.warning("cannot start the warm worker: %r", exc)
                return None
        return worker

    def prewarm(self, python: str | None, device: str) -> None:
        """Start the warm worker early (trusted workspaces only: the caller checks), so the
        first click on a lens does not pay for importing torch. It imports torch and nothing
        of the user's; a failure only means the first run is cold."""
        try:
            self._worker(python, device)
        except Exception:
            log.debug("prewarm failed", exc_info=True)

    async def run(
        self, uri: str, path: str, device: str, python: str | None, timeout: float, cancel: threading.Event,
        through: bool = False, on_phase: Callable[[str], None] | None = None, version: int | None = None,
    ) -> VerifyResult:
        """One run; with `through`, a run-through whose phases go to `on_phase` (called on the
        event loop as each is reached). Its result is kept under (uri, "through")."""
        from dtypeguard.verify.runner import run_verify

        previous = self.running.get(uri)
        if previous is not None:
            previous[1].set()  # a new run replaces one still going for the same file
        self.running[uri] = (THROUGH if through else device, cancel)
        self.phases.pop(uri, None)
        loop = asyncio.get_running_loop()

        def phase(name: str) -> None:  # runner thread -> event loop
            def deliver() -> None:
                self.phases[uri] = name
                if on_phase is not None:
                    on_phase(name)

            if not loop.is_closed():
                loop.call_soon_threadsafe(deliver)

        def work() -> VerifyResult:
            worker = self._worker(python, device)
            return run_verify(path, device=device, python=python, timeout=timeout, worker=worker, cancel_event=cancel,
                              through=THROUGH_BATCHES if through else 0, progress=phase if through else None)

        future, thread = spawn(work, "dtypeguard-verify")
        self.threads.add(thread)
        try:
            result = await future
        finally:
            self.threads.discard(thread)
            if self.running.get(uri, (None, None))[1] is cancel:
                del self.running[uri]
        if through:
            self.stale.discard(uri)
            self.results[(uri, THROUGH)] = result
            self.versions[(uri, THROUGH)] = version
            return result
        self.stale.discard(uri)
        self.results[(uri, device)] = result
        self.versions[(uri, device)] = version
        if device == "auto" and result.device in DEVICE_LABEL:
            self.results[(uri, result.device)] = result
            self.versions[(uri, result.device)] = version
        return result

    async def run_source(
        self, path: str, source: str, device: str, python: str | None, timeout: float, cancel: threading.Event,
    ) -> VerifyResult:
        """One run of `source` as if it were the file at `path` (the runner writes it to its
        scratch copy; `path` is never written), through the warm worker. Nothing is kept: no
        lens title or result changes (fix-and-verify runs the buffer and its fixed copy)."""
        from dtypeguard.verify.runner import run_verify

        def work() -> VerifyResult:
            worker = self._worker(python, device)
            return run_verify(path, device=device, python=python, timeout=timeout, worker=worker,
                              cancel_event=cancel, source=source)

        future, thread = spawn(work, "dtypeguard-fix-verify")
        self.threads.add(thread)
        try:
            return await future
        finally:
            self.threads.discard(thread)

    def close(self, wait_s: float = 3.0) -> None:
        """Cancel every run, close every warm worker, wait a little for the runs to end."""
        with self._lock:
            self.closed = True
            workers = list(self.workers.values())
            self.workers.clear()
        for _device, cancel in list(self.running.values()):
            cancel.set()
        if self.fixing is not None:
            self.fixing[1].set()
        for worker in workers:
            try:
                worker.close()
            except Exception:
                log.warning("closing a warm worker failed", exc_info=True)
        for thread in list(self.threads):
            thread.join(timeout=wait_s)


# where the static analysis put the fix for a rule in this document: rule code -> its range
Roots = dict[str, types.Range]


def _line_range(lines: Lines, line: int, encoding: str) -> types.Range | None:
    line0 = line - 1
    if not 0 <= line0 < len(lines):
        return None
    text = lines.text(line0)
    start = len(text) - len(text.lstrip())
    return types.Range(
        start=types.Position(line0, to_client_col(text, start, encoding)),
        end=types.Position(line0, to_client_col(text, len(text), encoding)),
    )


def _placed(
    uri: str, rule: str | None, at: types.Range, roots: Roots | None, words: str,
) -> tuple[types.Range, list[types.DiagnosticRelatedInformation] | None]:
    """At the static finding's root when the run's rule has one in this document (where the fix
    goes), with the run's own line as related information; else at the run's line."""
    root = roots.get(rule) if roots and rule else None
    if root is None or root == at:
        return at, None
    return root, [types.DiagnosticRelatedInformation(location=types.Location(uri=uri, range=at), message=words)]


def verify_diagnostic(
    result: VerifyResult, path: str, lines: Lines, encoding: str, uri: str = "", roots: Roots | None = None,
) -> types.Diagnostic | None:
    """The runtime error as a diagnostic in this file (None if elsewhere/none): at the root cause
    when the static analysis knows it, else at the line that raised."""
    if result.status not in ("error", "crashed", "timeout", "no-step") or result.line is None:
        return None
    if result.path and os.path.realpath(result.path) != os.path.realpath(path):
        return None
    at = _line_range(lines, result.line, encoding)
    if at is None:
        return None
    if result.status == "error":
        message = f"{result.error_type or 'Error'}: {result.message or ''}".strip()
    else:
        message = result.summary()
    if result.hint:
        message += f"\n{result.hint}"
    code = result.rule or result.error_type or result.status
    url = rule_url(result.rule) if result.rule else None
    severity = types.DiagnosticSeverity.Error if result.status in ("error", "crashed") else types.DiagnosticSeverity.Warning
    rng, related = _placed(uri, result.rule, at, roots, f"raised here when run: {result.error_type or result.status}")
    return types.Diagnostic(
        range=rng, message=message, severity=severity, code=code, source=VERIFY_SOURCE,
        code_description=types.CodeDescription(href=url) if url else None, related_information=related,
        data={"device": result.device, "verify": True},
    )


def warning_diagnostics(
    result: VerifyResult, path: str, lines: Lines, encoding: str, uri: str = "", roots: Roots | None = None,
) -> list[types.Diagnostic]:
    """Run warnings as warning diagnostics: NaN parameters or a stalled step (at the root the
    static rule names, else at the script's step() call), a checkpoint that cannot be loaded
    back (at its torch.save)."""
    out: list[types.Diagnostic] = []
    for warning in result.warnings:
        at = _line_range(lines, warning.line, encoding) if warning.line is not None else None
        if at is None:
            continue
        url = rule_url(warning.rule) if warning.rule else None
        seen = "seen after this step() when run" if warning.kind != "checkpoint" else "saved here"
        rng, related = _placed(uri, warning.rule, at, roots, seen)
        out.append(types.Diagnostic(
            range=rng, message=warning.message + (f"\n{warning.hint}" if warning.hint else ""),
            severity=types.DiagnosticSeverity.Warning, code=warning.rule or warning.kind, source=VERIFY_SOURCE,
            code_description=types.CodeDescription(href=url) if url else None, related_information=related,
            data={"device": result.device, "verify": True},
        ))
    return out


def message_type(result: VerifyResult) -> types.MessageType:
    if result.status == "ok":
        return types.MessageType.Warning if result.warnings else types.MessageType.Info
    if result.status in ("error", "crashed"):
        return types.MessageType.Error
    return types.MessageType.Warning
