"""The verify lens command end to end: result, lens title, diagnostic, messages, progress,
cancellation, the interpreter setting, and no processes left behind on shutdown."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.support import FIXTURES, H06, change_doc, open_doc, record, start, wait_published

pytest.importorskip("torch")
BASE_PYTHON = "/usr/bin/python3"
FP16_ADAM = Path(__file__).resolve().parents[2] / "samples" / "hazards" / "h13_fp16_adam_eps.py"


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _verify(client: LanguageClient, uri: str, device: str = "cpu") -> dict[str, Any]:
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="dtypeguard.verify", arguments=[uri, device])
    )
    assert isinstance(answer, dict)
    return answer


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.add(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_verify_ok_and_error(client: LanguageClient) -> None:
    await start(client)
    uri, _ = open_doc(client, FIXTURES / "good_train.py")
    await wait_published(client, uri, 1)
    answer = await _verify(client, uri)
    assert answer["status"] == "ok", answer
    assert answer["summary"].startswith("Adam step OK on cpu, ")
    assert answer["outcome"] == "ok"
    assert record(client).verify_results[-1] == {
        "uri": uri, "status": "ok", "outcome": "ok", "summary": answer["summary"], "line": None, "device": "cpu", "stale": False,
    }
    assert any(answer["summary"] in m.message for m in client.messages)
    reports = [r for token, rs in client.progress_reports.items() if str(token).startswith("dtypeguard-verify") for r in rs]
    assert [type(r).__name__ for r in reports] == ["WorkDoneProgressBegin", "WorkDoneProgressEnd"]
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    titles = [lens.command.title for lens in lenses or [] if lens.command]
    # a client that is not VS Code gets plain symbols; the GPU lens says "(emulated)" once the
    # warm worker has said its torch has no CUDA
    assert titles[0] == "✓ " + answer["summary"] and titles[2] == "Verify run-through"
    assert titles[1] in ("Verify on GPU", "Verify on GPU (emulated)")
    assert record(client).lens_refreshes >= 1

    # a runtime error: result, diagnostic at its line with the rule that explains it, its fix
    uri2, text = open_doc(client, H06)
    await wait_published(client, uri2, 1)
    answer = await _verify(client, uri2)
    assert answer["status"] == "error", answer
    line = answer["line"]  # the innermost frame of the script: Regressor.forward
    assert text.split("\n")[line - 1].strip() == "return self.out(torch.relu(self.hidden(x)))"
    assert answer["rule"] == "DG004"
    assert answer["summary"].startswith(f"RuntimeError at line {line}")
    published = record(client).published[uri2][-1].diagnostics
    runtime = [d for d in published if d.source == "dtypeguard.verify"]
    static = [d for d in published if d.source == "dtypeguard" and d.code == "DG004"]
    assert static, "static findings stay"
    # at the root cause the static analysis knows (where the fix goes), the raising line related
    assert len(runtime) == 1 and runtime[0].range == static[0].range
    assert [r.location.range.start.line for r in runtime[0].related_information or []] == [line - 1]
    assert runtime[0].code == "DG004" and "mat1 and mat2" in runtime[0].message
    assert runtime[0].severity == types.DiagnosticSeverity.Error
    assert any(m.type == types.MessageType.Error and "RuntimeError" in m.message for m in client.messages)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=_doc(uri2), range=runtime[0].range,
            context=types.CodeActionContext(diagnostics=[runtime[0]]),
        )
    )
    assert any(isinstance(a, types.CodeAction) and a.is_preferred and "float()" in a.title for a in actions or [])
    again = [a for a in actions or [] if a.title == "Verify again on CPU"]
    assert len(again) == 1, [a.title for a in actions or []]
    command = again[0].command if isinstance(again[0], types.CodeAction) else again[0]
    assert isinstance(command, types.Command)
    if command.command.startswith("{"):
        # lsprotocol's client reads a CodeAction that carries a command as a Command (Union
        # order) and keeps the nested command as text; on the wire it is a CodeAction
        command = types.Command(**ast.literal_eval(command.command))
    assert command.command == "dtypeguard.verify" and command.arguments == [uri2, "cpu"]

    # an edit: the result is of an earlier version, at once (lens, status notification), and
    # the runtime diagnostic goes with the next publish
    change_doc(client, uri2, 2, text + "\n# edited\n")
    await wait_published(client, uri2, 2)
    assert record(client).verify_results[-1]["stale"] is True and record(client).verify_results[-1]["uri"] == uri2
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri2)))
    titles = [lens.command.title for lens in lenses or [] if lens.command]
    assert titles[0] == "↻ Verify on CPU again (edited since: error)"
    assert not [d for d in record(client).published[uri2][-1].diagnostics if d.source == "dtypeguard.verify"]


async def test_verify_warning_is_not_ok(client: LanguageClient) -> None:
    """A step that leaves NaN parameters (float16 Adam) is a warning everywhere: the lens, the
    status notification, and a diagnostic at the static DG012 finding with the step's line."""
    await start(client)
    uri, text = open_doc(client, FP16_ADAM)
    await wait_published(client, uri, 1)
    answer = await _verify(client, uri)
    assert (answer["status"], answer["outcome"]) == ("ok", "warning"), answer
    assert "OK" not in answer["summary"] and "inf/NaN" in answer["summary"] and "[DG012]" in answer["summary"]
    assert record(client).verify_results[-1]["outcome"] == "warning"
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    titles = [lens.command.title for lens in lenses or [] if lens.command]
    assert titles[0] == "⚠ " + answer["summary"]
    published = record(client).published[uri][-1].diagnostics
    runtime = [d for d in published if d.source == "dtypeguard.verify"]
    static = [d for d in published if d.source == "dtypeguard" and d.code == "DG012"]
    assert len(runtime) == 1 and runtime[0].code == "DG012" and runtime[0].severity == types.DiagnosticSeverity.Warning
    assert static and runtime[0].range == static[0].range
    step_line = next(i for i, line in enumerate(text.split("\n")) if line.strip() == "optimizer.step()")
    assert [r.location.range.start.line for r in runtime[0].related_information or []] == [step_line]
    assert any(m.type == types.MessageType.Warning and answer["summary"] in m.message for m in client.messages)


async def test_verify_interpreter_without_torch(client: LanguageClient) -> None:
    if not os.access(BASE_PYTHON, os.X_OK) or subprocess.run([BASE_PYTHON, "-c", "import torch"], capture_output=True).returncode == 0:
        pytest.skip(f"{BASE_PYTHON} is absent or has torch")
    await start(client, settings={"interpreter": [BASE_PYTHON]})
    uri, _ = open_doc(client, FIXTURES / "good_train.py")
    await wait_published(client, uri, 1)
    answer = await _verify(client, uri)
    assert answer["status"] == "no-torch", answer
    assert "cannot import torch" in answer["summary"] and BASE_PYTHON in answer["summary"]


async def test_verify_cancel_and_shutdown_leave_no_processes(client: LanguageClient) -> None:
    await start(client, settings={"verifyTimeout": 120})
    uri, _ = open_doc(client, FIXTURES / "forever.py")
    await wait_published(client, uri, 1)
    server = client._server
    assert server is not None

    # 1. cancel through the progress the server created
    task = asyncio.ensure_future(_verify(client, uri))
    token = None
    for _ in range(500):
        token = next((t for t in client.progress_reports if str(t).startswith("dtypeguard-verify")), None)
        if token is not None and client.progress_reports[token]:
            break
        await asyncio.sleep(0.02)
    assert token is not None
    await asyncio.sleep(1.0)
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    answer = await asyncio.wait_for(task, 30)
    assert answer["status"] == "cancelled"

    # 2. shutdown while a run is going: every process the server started is gone
    task = asyncio.ensure_future(_verify(client, uri))
    deadline = time.monotonic() + 60
    spawned: set[int] = set()
    while time.monotonic() < deadline and len(spawned) < 2:
        spawned |= _descendants(server.pid)
        await asyncio.sleep(0.1)
    assert spawned, "the verify run started a process"
    await asyncio.sleep(0.5)
    spawned |= _descendants(server.pid)
    await asyncio.wait_for(client.shutdown_session(), 20)
    client.capabilities = None  # the fixture's teardown must not shut down twice
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in spawned):
        await asyncio.sleep(0.1)
    assert not [p for p in spawned if _alive(p)], "verify processes survived the server"


async def test_verify_run_through_lens(client: LanguageClient) -> None:
    """The third lens runs the whole script: phases as progress reports, the result as its
    title, and the checkpoint that cannot be loaded back as a warning at its torch.save."""
    await start(client)
    path = FIXTURES / "through_ckpt.py"
    uri, text = open_doc(client, path)
    await wait_published(client, uri, 1)
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="dtypeguard.verify", arguments=[uri, "cpu", "through"])
    )
    assert isinstance(answer, dict) and answer["status"] == "ok", answer
    assert [p["phase"] for p in answer["through"]["phases"]][:2] == ["step", "eval"]
    assert answer["scratch_dir"] and "ckpt.pt" in answer["written"]
    assert not (path.parent / "ckpt.pt").exists()  # written in the scratch folder only
    reports = [r for token, rs in client.progress_reports.items() if str(token).startswith("dtypeguard-verify") for r in rs]
    messages = [r.message for r in reports if isinstance(r, types.WorkDoneProgressReport)]
    assert "reached step" in messages and "reached eval" in messages
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    titles = [lens.command.title for lens in lenses or [] if lens.command]
    assert titles[0] == "Verify on CPU" and titles[1] in ("Verify on GPU", "Verify on GPU (emulated)")
    assert titles[2] == "⚠ " + answer["summary"]  # the checkpoint that does not load back: a warning
    assert answer["summary"].startswith("Ran through on cpu")
    save_line = next(i for i, line in enumerate(text.split("\n")) if "SAVE-LINE" in line)
    published = record(client).published[uri][-1].diagnostics
    runtime = [d for d in published if d.source == "dtypeguard.verify"]
    assert [(d.code, d.range.start.line, d.severity) for d in runtime] == [
        ("DG011", save_line, types.DiagnosticSeverity.Warning)
    ]
    assert "argparse.Namespace" in runtime[0].message
