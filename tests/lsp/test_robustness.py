"""Bad requests are answered with errors, handler exceptions are logged, the server keeps
serving, and it exits when its client goes away."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from typing import IO, Any, cast

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.lsp.support import (
    FIXTURES,
    H06,
    SERVER_COMMAND,
    make_client,
    open_doc,
    start,
    wait_published,
)

PATCHES = """
import dtypeguard.hover, dtypeguard.lsp.convert, dtypeguard.lsp.documents as docs
def boom(*a, **k):
    raise RuntimeError("boom from a test patch")
dtypeguard.hover.hover_markdown = boom
dtypeguard.lsp.convert.from_range = boom
original_change = docs.Documents.change
def change(self, uri, version):
    if version == 13:
        raise RuntimeError("boom in didChange")
    return original_change(self, uri, version)
docs.Documents.change = change
from dtypeguard.cli import main
raise SystemExit(main(["lsp"]))
"""


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-c", PATCHES], client_factory=make_client)
)
async def broken(lsp_client: LanguageClient) -> Any:
    yield
    await lsp_client.shutdown_session()


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _still_serving(client: LanguageClient, uri: str) -> None:
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    assert lenses, "the server still answers"


async def test_bad_requests_are_errors_not_crashes(client: LanguageClient) -> None:
    await start(client)
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    unknown = (FIXTURES / "never_opened.py").as_uri()
    with pytest.raises(JsonRpcException, match="not open"):
        await client.text_document_hover_async(types.HoverParams(text_document=_doc(unknown), position=types.Position(0, 0)))
    with pytest.raises(JsonRpcException, match="not open"):
        await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=_doc(unknown), range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
    with pytest.raises(JsonRpcException, match="not open"):
        await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(unknown)))
    with pytest.raises(JsonRpcException, match="outside the document"):
        await client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=types.Position(10_000, 3)))
    # a range past the end is clamped: actions for what is there
    far = types.Range(types.Position(0, 0), types.Position(99_999, 99_999))
    await client.text_document_code_action_async(
        types.CodeActionParams(text_document=_doc(uri), range=far, context=types.CodeActionContext(diagnostics=[]))
    )
    # bad command arguments and unknown commands
    for arguments in ([], [5], [uri, "tpu"], [uri, "cpu", "extra"]):
        with pytest.raises(JsonRpcException):
            await client.workspace_execute_command_async(types.ExecuteCommandParams(command="dtypeguard.verify", arguments=arguments))
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command="dtypeguard.nope", arguments=[uri]))
    with pytest.raises(JsonRpcException):
        await client.code_action_resolve_async(types.CodeAction(title="forged", data={"uri": uri, "action": "fix", "code": "DG004", "span": [1, 0, 1, 1], "fix": 0}))
    # a change for a document that was never opened is logged, not fatal
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=unknown, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="x = 1\n")],
        )
    )
    await _still_serving(client, uri)
    assert text


async def test_handler_exceptions_are_logged_and_answered(broken: LanguageClient) -> None:
    client = broken
    await start(client)
    uri, text = open_doc(client, H06)
    diags = await wait_published(client, uri, 1)
    line0 = next(i for i, line in enumerate(text.split("\n")) if "preds = model(inputs)" in line)
    # hover_markdown raising: degrade to the diagnostic explanation, and say so in the log
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=_doc(uri), position=types.Position(line0, text.split("\n")[line0].index("model")))
    )
    assert hover is not None and "**DG004**" in str(hover.contents)
    assert any("hover_markdown failed" in m.message and "boom" in m.message for m in client.log_messages)
    # an exception inside a request handler: an LSP error, a logged traceback
    with pytest.raises(JsonRpcException, match="boom"):
        await client.text_document_code_action_async(
            types.CodeActionParams(text_document=_doc(uri), range=diags[0].range, context=types.CodeActionContext(diagnostics=diags))
        )
    assert any("Traceback" in m.message and "boom from a test patch" in m.message for m in client.log_messages)
    # an exception inside a notification handler: logged, and the next changes still work
    for version in (13, 14):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "\n" * (version - 12))],
            )
        )
    assert await wait_published(client, uri, 14)
    assert any("boom in didChange" in m.message for m in client.log_messages)
    await _still_serving(client, uri)


def _message(stream: IO[bytes], payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def _read(stream: IO[bytes]) -> dict[str, Any]:
    length = 0
    while True:
        line = stream.readline()
        if not line:
            raise EOFError
        if line in (b"\r\n", b"\n"):
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return dict(json.loads(stream.read(length)))


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}


def test_stdin_closed_server_exits() -> None:
    proc = subprocess.Popen(SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        _message(proc.stdin, INIT)
        assert _read(proc.stdout)["id"] == 1
        _message(proc.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _message(proc.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": H06.as_uri(), "languageId": "python", "version": 1, "text": H06.read_text()}}})
        started = time.monotonic()
        proc.stdin.close()
        proc.wait(timeout=10)
        assert time.monotonic() - started < 5
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_malformed_params_are_answered_with_invalid_params() -> None:
    proc = subprocess.Popen(SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        _message(proc.stdin, INIT)
        assert _read(proc.stdout)["id"] == 1
        _message(proc.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _message(proc.stdin, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                              "params": {"textDocument": 5, "position": "here"}})
        _message(proc.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 7}})
        _message(proc.stdin, {"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
        answers: dict[int, dict[str, Any]] = {}
        while 3 not in answers:
            message = _read(proc.stdout)
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
        assert answers[2]["error"]["code"] == -32602
        assert "result" in answers[3]
        _message(proc.stdin, {"jsonrpc": "2.0", "method": "exit"})
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_tcp_mode_answers_initialize() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([*SERVER_COMMAND, "--tcp", f"127.0.0.1:{port}"], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        with conn, conn.makefile("rwb") as pair:
            stream = cast(IO[bytes], pair)
            _message(stream, INIT)
            answer = _read(stream)
            assert answer["result"]["serverInfo"]["name"] == "dtypeguard"
    finally:
        proc.kill()
        proc.wait()
