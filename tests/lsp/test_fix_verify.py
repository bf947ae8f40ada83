""""Fix and verify" over stdio: offered (code action, lens) only in a trusted workspace on a file
with safe fixes; it runs the buffer (unsaved edits included) and its fixed copy through the
warm verify worker, applies the fixes to the buffer only when the fixed copy verifies ok, says
both outcomes, offers "Apply anyway" otherwise, refuses a second request while one runs, can be
cancelled, and never writes the file."""

from __future__ import annotations

import ast
import asyncio
import hashlib
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from dtypeguard.fixes.api import fix_all
from tests.lsp.support import (
    H06,
    apply_workspace_edit,
    open_doc,
    record,
    start,
    wait_published,
)

pytest.importorskip("torch")
COMMAND = "dtypeguard.fixAndVerify"
TITLE = "Fix and verify: run the script before and after the safe fixes (runs your code)"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _run(client: LanguageClient, uri: str) -> dict[str, Any]:
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(command=COMMAND, arguments=[uri, "cpu"]))
    assert isinstance(answer, dict)
    return answer


async def _offered(client: LanguageClient, uri: str, diag: types.Diagnostic) -> tuple[list[str], list[str]]:
    """(code action titles at the diagnostic, lens titles)."""
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=_doc(uri), range=diag.range, context=types.CodeActionContext(diagnostics=[diag])))
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    return [a.title for a in actions or []], [lens.command.title for lens in lenses or [] if lens.command]


def _fix_verify_command(actions: list[types.CodeAction | types.Command] | None) -> types.Command:
    """The command of the one "Fix and verify" action (lsprotocol's client reads a CodeAction
    that carries a command as a Command, the nested command as text: see test_verify.py)."""
    found = [a for a in actions or [] if a.title == TITLE]
    assert len(found) == 1, [a.title for a in actions or []]
    action = found[0]
    if isinstance(action, types.CodeAction):
        assert action.edit is None and action.command is not None
        return action.command
    assert action.command.startswith("{"), action
    return types.Command(**ast.literal_eval(action.command))


async def _wait(what: str, probe: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


async def test_fix_and_verify_applies_the_fixes_when_the_fixed_copy_runs(client: LanguageClient) -> None:
    await start(client)
    on_disk = _digest(H06)
    disk_text = H06.read_text(encoding="utf-8")
    buffer = "# an unsaved line: the buffer runs, not the file\n" + disk_text
    uri, _ = open_doc(client, H06, buffer)
    diags = await wait_published(client, uri, 1)
    dg004 = next(d for d in diags if d.code == "DG004")

    # offered: a quick fix at the finding, a source action, and a lens after the verify lenses
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=_doc(uri), range=dg004.range, context=types.CodeActionContext(diagnostics=[dg004])))
    command = _fix_verify_command(actions)
    assert command.command == COMMAND and command.arguments == [uri]
    source = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=_doc(uri), range=dg004.range,
        context=types.CodeActionContext(diagnostics=[], only=["source.dtypeguard.fixAndVerify"])))
    assert [a.title for a in source or []] == [TITLE]
    _titles, lenses = await _offered(client, uri, dg004)
    assert lenses[3] == "Fix and verify", lenses

    # a second request while one runs is refused politely
    first = asyncio.ensure_future(_run(client, uri))
    await _wait("the progress of the first run", lambda: any(
        str(t).startswith("dtypeguard-verify") and rs for t, rs in client.progress_reports.items()))
    second = await _run(client, uri)
    assert (second["applied"], second["reason"]) == (False, "busy"), second
    assert "already running on h06_numpy_float64_linear.py" in second["message"]
    answer = await asyncio.wait_for(first, 240)

    assert answer["applied"] is True and answer["reason"] == "verified", answer
    before, after = answer["before"], answer["after"]
    assert (before["status"], before["rule"]) == ("error", "DG004")
    disk_line = next(i for i, line in enumerate(disk_text.split("\n"), 1) if "self.hidden(x)" in line)
    assert before["line"] == disk_line + 1, "the buffer (one line more than the file) ran, not the file"
    assert after["outcome"] == "ok" and after["summary"].startswith("Adam step OK on cpu")
    assert answer["fixed"] == ["DG004"]

    # the edit went to the buffer through workspace/applyEdit: the buffer with the safe fixes
    edits = record(client).applied
    assert len(edits) == 1
    assert apply_workspace_edit(buffer, uri, edits[0]) == fix_all(buffer, str(H06)).text
    # the message has both outcomes; it never wrote the file
    message = next(m for m in client.messages if m.message.startswith("dtypeguard fix and verify: applied"))
    assert message.type == types.MessageType.Info
    assert f"before: error: RuntimeError at line {disk_line + 1}: mat1 and mat2" in message.message
    assert "after: ok: Adam step OK on cpu" in message.message and "save to keep them" in message.message
    assert any(m.type == types.MessageType.Info and "already running" in m.message for m in client.messages)
    assert _digest(H06) == on_disk
    assert record(client).message_requests == []
    reports = [r for t, rs in client.progress_reports.items() if str(t).startswith("dtypeguard-verify") for r in rs]
    begins = [r for r in reports if isinstance(r, types.WorkDoneProgressBegin)]
    assert begins and begins[0].title == "dtypeguard fix and verify" and begins[0].cancellable
    assert any(isinstance(r, types.WorkDoneProgressReport) and "fixed copy" in (r.message or "") for r in reports)


async def test_fix_and_verify_applies_nothing_when_the_fixed_copy_fails(client: LanguageClient) -> None:
    """h06 with a second bug in the buffer (a layer one feature too wide): the DG004 fix is
    right, but the fixed copy then fails on the shapes: nothing is applied, both outcomes are
    said, and "Apply anyway" applies it."""
    await start(client)
    on_disk = _digest(H06)
    text = H06.read_text(encoding="utf-8").replace("Regressor(n_features=4)", "Regressor(n_features=5)")
    uri, _ = open_doc(client, H06, text)
    await wait_published(client, uri, 1)
    answer = await _run(client, uri)
    assert answer["applied"] is False and answer["reason"] == "the fixed copy does not verify ok", answer
    assert answer["before"]["status"] == "error" and answer["before"]["rule"] == "DG004"
    assert answer["after"]["status"] == "error" and "shapes cannot be multiplied" in answer["after"]["summary"]
    assert record(client).applied == []
    requests = await _wait("the showMessageRequest", lambda: record(client).message_requests, 10)
    request = requests[0]
    assert request.type == types.MessageType.Warning
    assert [a.title for a in request.actions or []] == ["Apply anyway"]
    assert "not applied: the fixed copy does not verify ok" in request.message
    assert "before: error: RuntimeError at line 18: mat1 and mat2 must have the same dtype" in request.message
    assert "after: error: RuntimeError at line 18: mat1 and mat2 shapes cannot be multiplied (500x4 and 5x32)" in request.message
    assert _digest(H06) == on_disk

    # "Apply anyway" applies the same fixes (the client in this test answers with it)
    record(client).message_choice = "Apply anyway"
    record(client).message_requests.clear()
    answer = await _run(client, uri)
    assert answer["applied"] is False
    applied = await _wait("the edit applied anyway", lambda: record(client).applied, 10)
    assert apply_workspace_edit(text, uri, applied[0]) == fix_all(text, str(H06)).text
    await _wait("the applied-anyway message", lambda: any("applied anyway" in m.message for m in client.messages), 10)
    assert _digest(H06) == on_disk


async def test_fix_and_verify_cancel(client: LanguageClient) -> None:
    """A buffer that sleeps before its first step: cancelFixAndVerify ends the run, nothing applied."""
    await start(client, settings={"verifyTimeout": 120})
    text = H06.read_text(encoding="utf-8").replace("import torch\n", "import torch\nimport time\ntime.sleep(100)\n", 1)
    uri, _ = open_doc(client, H06, text)
    await wait_published(client, uri, 1)
    task = asyncio.ensure_future(_run(client, uri))
    await _wait("the progress", lambda: any(str(t).startswith("dtypeguard-verify") and rs for t, rs in client.progress_reports.items()))
    await asyncio.sleep(1.0)
    cancelled = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="dtypeguard.cancelFixAndVerify", arguments=[uri]))
    assert cancelled == {"cancelled": True}
    answer = await asyncio.wait_for(task, 30)
    assert (answer["applied"], answer["reason"]) == (False, "cancelled"), answer
    assert record(client).applied == []
    assert any("cancelled; nothing applied" in m.message for m in client.messages)


async def test_fix_and_verify_is_off_when_untrusted(client: LanguageClient) -> None:
    await start(client, trusted=False)
    uri, _ = open_doc(client, H06)
    diags = await wait_published(client, uri, 1)
    dg004 = next(d for d in diags if d.code == "DG004")
    titles, lenses = await _offered(client, uri, dg004)
    assert TITLE not in titles and lenses == []
    with pytest.raises(Exception, match="off until you trust this workspace"):
        await _run(client, uri)
    assert record(client).applied == []
