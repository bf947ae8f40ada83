"""The `dtypeguard.fixAndVerify` command: apply the safe fixes to the buffer only if the fixed
text then runs (the editor half of `dtypeguard fix --verify`).

`dtypeguard.fixAndVerify [uri, device?]` runs only on this explicit request (the code action,
the "Fix and verify" lens or the palette), only in a trusted workspace, on a Python file (not
a notebook). It takes the document's text as the editor has it (unsaved edits included),
computes the safe fixes with `fixes.fix_all`, and runs the text and its fixed copy, one after
the other, up to their first optimizer step through the warm verify worker
(`Verifier.run_source`: each text is written to the run's scratch copy of the folder, never to
the user's file or folder). The device is the argument, else the `verifyDevice` setting.

- The fixed copy verifies ok: the fixes are applied to the buffer as one `workspace/applyEdit`
  (one undo step; the user saves) and `window/showMessage` says what was fixed with both
  outcomes ("before: error: ...; after: ok: ...").
- It does not: nothing is applied; a `window/showMessageRequest` says why, with both outcomes,
  and offers "Apply anyway" (applied only if the document did not change since).
- The document changed while it ran: nothing is applied (the fixes were for the old text).

While it runs the client gets a cancellable work-done progress, and
`dtypeguard.cancelFixAndVerify [uri]` cancels it too (VS Code's status-bar progress has no
cancel button, so the extension calls it from its own notification). One runs at a time: a
second request is answered with a message and `{"applied": false, "reason": "busy"}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from dtypeguard.lsp import actions, verify
from dtypeguard.lsp.background import spawn
from dtypeguard.lsp.convert import diff_edits
from dtypeguard.lsp.session import Session, command_args
from dtypeguard.lsp.verifier import CANCEL_FIX_VERIFY_COMMAND, FIX_VERIFY_COMMAND

if TYPE_CHECKING:
    from dtypeguard.fixes.api import FixAllResult
    from dtypeguard.verify.result import VerifyResult

APPLY_ANYWAY = "Apply anyway"
LABEL = "dtypeguard: fix and verify"
PREFIX = "dtypeguard fix and verify"

# offers of "Apply anyway" waiting for the user (kept so they are not garbage collected)
_OFFERS: set[asyncio.Task[None]] = set()


def outcome_text(result: VerifyResult) -> str:
    """One run as the CLI's `fix --verify` prints it: "error: RuntimeError at line 18: ..."."""
    return f"{result.outcome}: {result.summary()}"


def _brief(result: VerifyResult) -> dict[str, Any]:
    return {"status": result.status, "outcome": result.outcome, "summary": result.summary(),
            "line": result.line, "rule": result.rule}


async def fix_and_verify(session: Session, *args: object) -> dict[str, Any]:
    """The command: check its arguments, the trust and that none runs, then run."""
    uri_raw, device_raw = command_args(args, 2, FIX_VERIFY_COMMAND)
    uri = cast(str, uri_raw)
    device = verify.trusted_device(session, device_raw, FIX_VERIFY_COMMAND, "Fix and verify")
    if session.notebook_of_cell(uri) is not None or session.notebooks.is_notebook(uri):
        return _answer(session, False, "notebook", "dtypeguard: Fix and verify works on Python files, not yet on "
                       "notebooks: use Fix all, then Verify.", types.MessageType.Info)
    path = session.path_of(uri)
    if path is None:
        raise JsonRpcInvalidParams(message=f"{FIX_VERIFY_COMMAND}: only files on disk can be verified, not {uri}")
    session.state(uri)  # the document must be open
    running = session.verifier.fixing
    if running is not None:
        where = os.path.basename(session.path_of(running[0]) or running[0])
        return _answer(session, False, "busy", f"dtypeguard: Fix and verify is already running on {where}; "
                       "wait for it to finish (or cancel it), then ask again.", types.MessageType.Info)
    cancel = threading.Event()
    session.verifier.fixing = (uri, cancel)  # before any await: a second request sees it
    try:
        return await _fix_and_verify(session, uri, path, str(device), cancel)
    finally:
        _release(session, cancel)


def _release(session: Session, cancel: threading.Event) -> None:
    """The runs are over: another request may start, and the lens says so (idempotent)."""
    if session.verifier.fixing is not None and session.verifier.fixing[1] is cancel:
        session.verifier.fixing = None
        session.refresh(lenses=True)


async def cancel_fix_and_verify(session: Session, *args: object) -> dict[str, Any]:
    """`dtypeguard.cancelFixAndVerify [uri]`: cancel the run going for that document."""
    uri = cast(str, command_args(args, 1, CANCEL_FIX_VERIFY_COMMAND)[0])
    running = session.verifier.fixing
    if running is None or running[0] not in (uri, session.notebook_of_cell(uri)):
        return {"cancelled": False}
    running[1].set()
    return {"cancelled": True}


def _answer(
    session: Session, applied: bool, reason: str, message: str, kind: types.MessageType, **extra: Any,
) -> dict[str, Any]:
    session.show(message, kind)
    return {"applied": applied, "reason": reason, "message": message, **extra}


async def _fix_and_verify(session: Session, uri: str, path: str, device: str, cancel: threading.Event) -> dict[str, Any]:
    name = os.path.basename(path)
    state = session.state(uri)
    analysis = await session.analysis(uri)
    if not analysis.usable:
        return _answer(session, False, "does not parse", f"dtypeguard: {name} does not parse; fix the syntax "
                       "error first, then Fix and verify.", types.MessageType.Warning)
    target = actions.target_of(session, analysis, state)
    fixes = actions.fixes_module()
    future, _thread = spawn(lambda: fixes.fix_all(target.text, target.path, target.config), "dtypeguard-fix-verify")
    outcome: FixAllResult = await future
    if outcome.text == target.text:
        return _answer(session, False, "nothing to fix", f"dtypeguard: no safe fix applies to {name}; nothing "
                       "to verify.", types.MessageType.Info)
    fixed = sorted({f.code for f in outcome.applied})
    python = session.settings.python
    timeout = session.settings.verify_timeout
    token = await verify.begin_progress(session, device, path, cancel, title="dtypeguard fix and verify")
    session.refresh(lenses=True)
    try:
        verify.report_progress(session, token, f"running {name} as it is in the editor")
        before = await session.verifier.run_source(path, target.text, device, python, timeout, cancel)
        after = None
        if before.status != "cancelled" and not cancel.is_set():
            verify.report_progress(session, token, f"running the fixed copy ({', '.join(fixed)} fixed)")
            after = await session.verifier.run_source(path, outcome.text, device, python, timeout, cancel)
    except asyncio.CancelledError:
        cancel.set()
        verify.end_progress(session, token, "cancelled")
        raise
    except BaseException:
        verify.end_progress(session, token, "failed")
        raise
    _release(session, cancel)  # before the edit and the messages: the lens title is current
    if after is None or after.status == "cancelled" or cancel.is_set():
        verify.end_progress(session, token, "cancelled")
        return _answer(session, False, "cancelled", f"{PREFIX}: cancelled; nothing applied to {name}.",
                       types.MessageType.Info, before=_brief(before))
    both = f"before: {outcome_text(before)}; after: {outcome_text(after)}"
    if after.status == "no-torch":
        both += f" (set the dtypeguard interpreter setting to a Python with torch; now: {python or 'the server’s own Python'})"
    extra = {"before": _brief(before), "after": _brief(after), "fixed": fixed}
    what = f"the safe fixes ({', '.join(fixed)})"
    edit = actions.workspace_edit(target, diff_edits(target.text, outcome.text, target.encoding))
    if after.outcome != "ok":
        verify.end_progress(session, token, f"not applied: the fixed copy: {after.outcome}")
        message = (f"{PREFIX}: {name}: {what} not applied: the fixed copy does not verify ok "
                   f"({after.outcome}). {both}.")
        _offer(session, uri, target.version, edit, message, name)
        return {"applied": False, "reason": "the fixed copy does not verify ok", "message": message, **extra}
    verify.end_progress(session, token, f"fixed copy: {after.summary()}")
    if _version(session, uri) != target.version:
        return _answer(session, False, "changed", f"{PREFIX}: {name} changed while it ran, so {what} were not "
                       f"applied; ask again. {both}.", types.MessageType.Warning, **extra)
    if not await session.apply_edit(edit, LABEL):
        return _answer(session, False, "refused", f"{PREFIX}: the editor did not apply {what} to {name}. {both}.",
                       types.MessageType.Warning, **extra)
    return _answer(session, True, "verified", f"{PREFIX}: applied {what} to {name}: {both}. Not saved yet: "
                   "save to keep them, undo to drop them.", types.MessageType.Info, **extra)


def _version(session: Session, uri: str) -> int | None:
    state = session.documents.docs.get(uri)
    return state.version if state is not None else None


def _offer(session: Session, uri: str, version: int, edit: types.WorkspaceEdit, message: str, name: str) -> None:
    """Say why nothing was applied, with "Apply anyway": the edit is applied if the user picks
    it and the document is still the text the fixes were made for."""

    async def ask() -> None:
        try:
            choice = await session.client.window_show_message_request_async(types.ShowMessageRequestParams(
                type=types.MessageType.Warning, message=message, actions=[types.MessageActionItem(title=APPLY_ANYWAY)],
            ))
        except Exception as exc:
            session.log(f"dtypeguard: fix and verify: no answer to the message: {exc!r}", types.MessageType.Info)
            return
        if choice is None or choice.title != APPLY_ANYWAY:
            return
        if _version(session, uri) != version:
            session.show(f"{PREFIX}: {name} changed since; nothing applied. Ask again to fix the new text.",
                         types.MessageType.Warning)
            return
        if await session.apply_edit(edit, LABEL):
            session.show(f"{PREFIX}: applied anyway to {name} (it did not verify ok). Not saved yet: save to keep "
                         "the fixes, undo to drop them.", types.MessageType.Info)

    task = asyncio.ensure_future(ask())
    _OFFERS.add(task)
    task.add_done_callback(_OFFERS.discard)
    with contextlib.suppress(Exception):
        session.log(message, types.MessageType.Warning)
