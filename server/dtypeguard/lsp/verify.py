"""The `dtypeguard.verify` command: run the file (or a notebook's open cells) up to its first
optimizer step, and show what happened.

`dtypeguard.verify [uri, device?, "through"?]` runs only on this explicit request, and only in
a trusted workspace (the request fails with a shown message otherwise). During the run the
client gets a cancellable work-done progress (a cancel stops the run's process group) and the
lens titles say it is running, phase by phase for a run-through. After it: the runtime error
becomes a diagnostic at its line (source `dtypeguard.verify`, in the cell for a notebook), run
warnings with a line become warning diagnostics, the lenses show the result, and the client
gets `dtypeguard/verifyResult` and a `window/showMessage`. The runs themselves, their results
and the warm workers are `verifier.Verifier`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from dtypeguard.lsp import convert, diagnostics
from dtypeguard.lsp.session import Session, command_args
from dtypeguard.lsp.verifier import (
    THROUGH,
    VERIFY_COMMAND,
    Roots,
    message_type,
    verify_diagnostic,
    warning_diagnostics,
)

if TYPE_CHECKING:
    from dtypeguard.lsp.documents import Analysis
    from dtypeguard.verify.result import VerifyResult

VERIFY_RESULT_NOTIFICATION = "dtypeguard/verifyResult"


def trusted_device(session: Session, device_raw: object, command: str, what: str) -> str:
    """The device a command that runs the user's code (Verify, Fix and verify) asks for, or the
    setting's; refused (RequestFailed, with a message) in a workspace the user has not trusted."""
    device = device_raw if device_raw is not None else session.settings.verify_device
    if device not in ("cpu", "cuda", "auto"):
        raise JsonRpcInvalidParams(message=f"{command}: device must be cpu, cuda or auto, not {device!r}")
    if not session.trusted:
        message = f"dtypeguard: {what} runs your code, so it is off until you trust this workspace."
        session.show(message, types.MessageType.Warning)
        raise JsonRpcException(message=message, code=-32803)  # RequestFailed
    return device


async def verify(session: Session, *args: object) -> dict[str, Any]:
    """The command: check its arguments and the workspace trust, then run."""
    uri_raw, device_raw, mode = command_args(args, 3, VERIFY_COMMAND)
    if mode not in (None, THROUGH):
        raise JsonRpcInvalidParams(message=f"{VERIFY_COMMAND}: the third argument may only be {THROUGH!r}")
    uri = cast(str, uri_raw)
    device = trusted_device(session, device_raw, VERIFY_COMMAND, "Verify")
    uri = session.notebook_of_cell(uri) or uri
    path = session.path_of(uri)
    if path is None:
        raise JsonRpcInvalidParams(message=f"{VERIFY_COMMAND}: only files on disk can be verified, not {uri}")
    return await run_verify(session, uri, path, str(device), through=mode == THROUGH)


async def verify_run(
    session: Session, uri: str, path: str, device: str, cancel: threading.Event, through: bool = False,
    on_phase: Callable[[str], None] | None = None,
) -> VerifyResult:
    """The run itself: the file, or a notebook's current code cells as a temporary script
    (the error is then mapped to its cell; `cell` becomes the code cell's number). The result
    belongs to the document version the run started from: an edit after it makes it stale."""
    python = session.settings.python
    timeout = session.settings.verify_timeout
    doc = session.documents.docs.get(uri)
    version = doc.version if doc is not None else None
    if not session.notebooks.is_notebook(uri):
        return await session.verifier.run(uri, path, device, python, timeout, cancel, through, on_phase, version)
    from dtypeguard.notebook import map_verify_result, temporary_script

    view = session.notebooks.build(session.workspace, uri, for_verify=path)
    with temporary_script(view.script, path) as script_path:
        result = await session.verifier.run(uri, script_path, device, python, timeout, cancel, through, on_phase, version)
    map_verify_result(result, view.script, script_path, path)
    nb_state = session.notebooks.open.get(uri)
    if nb_state is not None:
        nb_state.verify = {}
        cell = result.cell - 1 if result.cell is not None else None
        if cell is not None and cell in view.uris:
            diag = verify_diagnostic(result, path, view.cell_lines(cell), session.encoding)
            if diag is not None:
                nb_state.verify[view.uris[cell]] = [diag]
            result.cell = sorted(view.uris).index(cell) + 1  # as "code cell N" says
    return result


async def run_verify(session: Session, uri: str, path: str, device: str, through: bool = False) -> dict[str, Any]:
    """A run with its progress, then its result shown everywhere it shows (see the docstring)."""
    cancel = threading.Event()
    token = await begin_progress(session, device + (", run-through" if through else ""), path, cancel)
    session.refresh(lenses=True)
    python = session.settings.python

    def on_phase(phase: str) -> None:  # run-through: name each phase as it is reached
        if token is not None:
            with contextlib.suppress(Exception):
                session.client.work_done_progress.report(token, types.WorkDoneProgressReport(message=f"reached {phase}"))
        session.refresh(lenses=True)

    try:
        result = await verify_run(session, uri, path, device, cancel, through, on_phase if through else None)
    except asyncio.CancelledError:
        cancel.set()
        end_progress(session, token, "cancelled")
        raise
    except BaseException:
        end_progress(session, token, "failed")
        raise
    summary = result.summary()
    end_progress(session, token, summary)
    if result.status == "no-torch":
        where = python or "the server's own Python"
        summary = f"{summary} (set the dtypeguard interpreter setting to a Python with torch; now: {where})"
    state = session.documents.docs.get(uri)
    if state is not None and session.notebooks.is_notebook(uri):
        state.verify_epoch += 1
        diagnostics.publish(session, state)
        session.refresh(diagnostics=True)
    elif state is not None:
        lines = state.latest.lines if state.latest is not None else convert.Lines(session.text_of(uri))
        roots = _roots(session, state.latest, uri, result)
        diag = verify_diagnostic(result, path, lines, session.encoding, uri, roots)
        state.verify_diagnostics = [diag] if diag is not None else []
        state.verify_diagnostics += warning_diagnostics(result, path, lines, session.encoding, uri, roots)
        state.verify_epoch += 1
        diagnostics.publish(session, state)
        session.refresh(diagnostics=True)
    session.refresh(lenses=True)
    payload = result_payload(uri, result, summary, stale=False)
    try:
        session.client.notify(VERIFY_RESULT_NOTIFICATION, payload)
    except Exception as exc:
        session.log(f"dtypeguard: cannot send {VERIFY_RESULT_NOTIFICATION}: {exc!r}", types.MessageType.Warning)
    session.show(f"dtypeguard verify: {summary}", message_type(result))
    out = result.to_json()
    out["uri"] = uri
    out["summary"] = summary
    return out


def result_payload(uri: str, result: VerifyResult, summary: str, stale: bool) -> dict[str, Any]:
    """`dtypeguard/verifyResult`: the client's status bar shows it for this document, with the
    outcome's look (docs/lsp-contract.md); `stale` once the document is edited after the run."""
    return {"uri": uri, "status": result.status, "outcome": result.outcome, "summary": summary,
            "line": result.line, "device": result.device, "stale": stale}


def notify_stale(session: Session, uri: str) -> None:
    """After an edit: the lenses say the results are of an earlier version, and the client's
    status bar marks its result as stale (the verify diagnostics were dropped with the edit)."""
    results = [r for (u, _key), r in list(session.verifier.results.items()) if u == uri]
    if not results:
        return
    session.refresh(lenses=True)
    result = results[-1]
    with contextlib.suppress(Exception):
        session.client.notify(VERIFY_RESULT_NOTIFICATION, result_payload(uri, result, result.summary(), stale=True))


def _roots(session: Session, analysis: Analysis | None, uri: str, result: VerifyResult) -> Roots:
    """Where the static analysis puts the fix for each rule the run reported: the finding of
    that rule whose own line or related lines include the run's line, else the first one."""
    if analysis is None or not analysis.usable:
        return {}
    wanted = {result.rule, *(w.rule for w in result.warnings)} - {None}
    lines_seen = {result.line, *(w.line for w in result.warnings)} - {None}
    roots: Roots = {}
    for finding in analysis.result.findings:
        if finding.code not in wanted:
            continue
        touches = finding.span.line in lines_seen or any(r.span.line in lines_seen for r in finding.related)
        if finding.code not in roots or touches:
            roots[finding.code] = convert.diagnostic(finding, analysis.lines, uri, session.encoding).range
            if touches:
                wanted.discard(finding.code)
    return roots


async def begin_progress(
    session: Session, device: str, path: str, cancel: threading.Event, title: str = "dtypeguard verify",
) -> str | None:
    """A cancellable work-done progress for the run, if the client shows them (its token)."""
    window = session.caps.window
    if window is None or not window.work_done_progress:
        return None
    progress = session.client.work_done_progress
    token = f"dtypeguard-verify-{uuid.uuid4()}"
    try:
        await asyncio.wait_for(progress.create_async(token), 10)
    except Exception as exc:
        session.log(f"dtypeguard: no progress for verify: {exc!r}", types.MessageType.Info)
        return None
    name = path.rsplit("/", 1)[-1]
    progress.begin(
        token, types.WorkDoneProgressBegin(title=title, message=f"{name} on {device}", cancellable=True)
    )
    cancelled = progress.tokens.get(token)
    if cancelled is not None:
        cancelled.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
    return token


def report_progress(session: Session, token: str | None, message: str) -> None:
    if token is None:
        return
    with contextlib.suppress(Exception):
        session.client.work_done_progress.report(token, types.WorkDoneProgressReport(message=message))


def end_progress(session: Session, token: str | None, message: str) -> None:
    if token is None:
        return
    progress = session.client.work_done_progress
    try:
        progress.end(token, types.WorkDoneProgressEnd(message=message))
    finally:
        progress.tokens.pop(token, None)
