"""Verify: the code lenses above optimizer constructions and the runs they start.

A run executes user code, so it happens only on an explicit command, in a daemon thread (the
runner owns the subprocess and its process group), with a cancel event that shutdown, exit, a
cancelled request or a cancelled progress all set. Warm workers are started lazily, one per
(interpreter, device), and closed on shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types

from dtypeguard.findings import Span
from dtypeguard.lsp.convert import VERIFY_SOURCE, Lines, rule_url, to_client_col

if TYPE_CHECKING:
    from dtypeguard.verify.runner import VerifyResult, WarmWorker

log = logging.getLogger(__name__)

VERIFY_COMMAND = "dtypeguard.verify"
DEVICE_LABEL = {"cpu": "CPU", "cuda": "GPU"}
THROUGH = "through"  # third argument of VERIFY_COMMAND: run-through mode; its results' key
THROUGH_BATCHES = 2
T = TypeVar("T")


def spawn(fn: Callable[[], T], name: str) -> tuple[asyncio.Future[T], threading.Thread]:
    """Run `fn` in a daemon thread (never blocks interpreter exit); await the future."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(ok: bool, value: Any) -> None:
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def target() -> None:
        try:
            value = fn()
        except BaseException as exc:
            if not loop.is_closed():
                loop.call_soon_threadsafe(deliver, False, exc)
            return
        if not loop.is_closed():
            loop.call_soon_threadsafe(deliver, True, value)

    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return future, thread


@dataclass
class Verifier:
    results: dict[tuple[str, str], VerifyResult] = field(default_factory=dict)  # (uri, device)
    running: dict[str, tuple[str, threading.Event]] = field(default_factory=dict)  # uri -> (device, cancel)
    threads: set[threading.Thread] = field(default_factory=set)
    workers: dict[tuple[str, str], WarmWorker] = field(default_factory=dict)
    closed: bool = False
    phases: dict[str, str] = field(default_factory=dict)  # uri -> last run-through phase reached
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------------ lenses
    def lenses(self, uri: str, sites: list[tuple[Span, str]], lines: Lines, encoding: str) -> list[types.CodeLens]:
        out: list[types.CodeLens] = []
        for span, _cls in sites:
            line0 = max(0, min(span.line - 1, len(lines) - 1))
            col = to_client_col(lines.text(line0), span.col, encoding)
            rng = types.Range(start=types.Position(line0, col), end=types.Position(line0, col))
            for device in ("cpu", "cuda"):
                out.append(types.CodeLens(range=rng, command=types.Command(
                    title=self.title(uri, device), command=VERIFY_COMMAND, arguments=[uri, device])))
            # the run-through uses the configured device (None: the server's verifyDevice)
            out.append(types.CodeLens(range=rng, command=types.Command(
                title=self.title(uri, THROUGH), command=VERIFY_COMMAND, arguments=[uri, None, THROUGH])))
        return out

    def title(self, uri: str, device: str) -> str:
        if device == THROUGH:
            running = self.running.get(uri)
            if running is not None and running[0] == THROUGH:
                phase = self.phases.get(uri)
                return f"Running through… {phase}" if phase else "Running through…"
            result = self.results.get((uri, THROUGH))
            return "Verify run-through" if result is None else result.summary()
        label = DEVICE_LABEL[device]
        running = self.running.get(uri)
        if running is not None and running[0] in (device, "auto"):
            return f"Verifying on {label}…"
        result = self.results.get((uri, device))
        if result is None:
            return f"Verify on {label}"
        return result.summary()

    def forget(self, uri: str) -> None:
        for key in [k for k in self.results if k[0] == uri]:
            del self.results[key]

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
        through: bool = False, on_phase: Callable[[str], None] | None = None,
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
            self.results[(uri, THROUGH)] = result
            return result
        self.results[(uri, device)] = result
        if device == "auto" and result.device in DEVICE_LABEL:
            self.results[(uri, result.device)] = result
        return result

    def close(self, wait_s: float = 3.0) -> None:
        """Cancel every run, close every warm worker, wait a little for the runs to end."""
        with self._lock:
            self.closed = True
            workers = list(self.workers.values())
            self.workers.clear()
        for _device, cancel in list(self.running.values()):
            cancel.set()
        for worker in workers:
            try:
                worker.close()
            except Exception:
                log.warning("closing a warm worker failed", exc_info=True)
        for thread in list(self.threads):
            thread.join(timeout=wait_s)


def verify_diagnostic(result: VerifyResult, path: str, lines: Lines, encoding: str) -> types.Diagnostic | None:
    """The runtime error as a diagnostic at its line of this file (None if elsewhere/none)."""
    if result.status not in ("error", "crashed", "timeout", "no-step") or result.line is None:
        return None
    if result.path and os.path.realpath(result.path) != os.path.realpath(path):
        return None
    line0 = result.line - 1
    if not 0 <= line0 < len(lines):
        return None
    text = lines.text(line0)
    start = len(text) - len(text.lstrip())
    rng = types.Range(
        start=types.Position(line0, to_client_col(text, start, encoding)),
        end=types.Position(line0, to_client_col(text, len(text), encoding)),
    )
    if result.status == "error":
        message = f"{result.error_type or 'Error'}: {result.message or ''}".strip()
    else:
        message = result.summary()
    if result.hint:
        message += f"\n{result.hint}"
    code = result.rule or result.error_type or result.status
    url = rule_url(result.rule) if result.rule else None
    severity = types.DiagnosticSeverity.Error if result.status in ("error", "crashed") else types.DiagnosticSeverity.Warning
    return types.Diagnostic(
        range=rng, message=message, severity=severity, code=code, source=VERIFY_SOURCE,
        code_description=types.CodeDescription(href=url) if url else None,
    )


def warning_diagnostics(result: VerifyResult, path: str, lines: Lines, encoding: str) -> list[types.Diagnostic]:
    """Run warnings that have a line in this file (a checkpoint that cannot be loaded back,
    at its torch.save) as warning diagnostics."""
    out: list[types.Diagnostic] = []
    for warning in result.warnings:
        if warning.line is None or not 0 <= warning.line - 1 < len(lines):
            continue
        text = lines.text(warning.line - 1)
        start = len(text) - len(text.lstrip())
        rng = types.Range(
            start=types.Position(warning.line - 1, to_client_col(text, start, encoding)),
            end=types.Position(warning.line - 1, to_client_col(text, len(text), encoding)),
        )
        url = rule_url(warning.rule) if warning.rule else None
        out.append(types.Diagnostic(
            range=rng, message=warning.message + (f"\n{warning.hint}" if warning.hint else ""),
            severity=types.DiagnosticSeverity.Warning, code=warning.rule or warning.kind, source=VERIFY_SOURCE,
            code_description=types.CodeDescription(href=url) if url else None,
        ))
    return out


def message_type(result: VerifyResult) -> types.MessageType:
    if result.status == "ok":
        return types.MessageType.Warning if result.warnings else types.MessageType.Info
    if result.status in ("error", "crashed"):
        return types.MessageType.Error
    return types.MessageType.Warning
