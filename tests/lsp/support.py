"""Shared pieces of the language-server tests: a recording pytest-lsp client, session start-up,
document helpers and an independent implementation of LSP text edits."""

from __future__ import annotations

import asyncio
import importlib
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
H06 = SAMPLES / "hazards" / "h06_numpy_float64_linear.py"
SERVER_COMMAND = [sys.executable, "-m", "dtypeguard", "lsp"]


@dataclass
class Record:
    """What the server sent us besides responses."""

    published: dict[str, list[types.PublishDiagnosticsParams]] = field(default_factory=dict)
    applied: list[types.WorkspaceEdit] = field(default_factory=list)
    verify_results: list[dict[str, Any]] = field(default_factory=list)
    lens_refreshes: int = 0
    message_requests: list[types.ShowMessageRequestParams] = field(default_factory=list)
    message_choice: str | None = None  # the action title a `window/showMessageRequest` gets back


RECORDS: dict[int, Record] = {}


def record(client: LanguageClient) -> Record:
    return RECORDS.setdefault(id(client), Record())


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features: dict[str, Any] = dict(DEFAULT_CLIENT_FEATURES)

    def publish(c: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        c.diagnostics[params.uri] = params.diagnostics
        record(c).published.setdefault(params.uri, []).append(params)

    def apply_edit(c: LanguageClient, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        record(c).applied.append(params.edit)
        return types.ApplyWorkspaceEditResult(applied=True)

    def verify_result(c: LanguageClient, params: Any) -> None:
        if not isinstance(params, dict):
            params = params._asdict() if hasattr(params, "_asdict") else c.protocol._converter.unstructure(params)
        record(c).verify_results.append(dict(params))

    def show_message_request(c: LanguageClient, params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        rec = record(c)
        rec.message_requests.append(params)
        return types.MessageActionItem(title=rec.message_choice) if rec.message_choice else None

    def lens_refresh(c: LanguageClient, params: None) -> None:
        record(c).lens_refreshes += 1

    def inlay_refresh(c: LanguageClient, params: None) -> None:
        return None

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish
    features[types.WORKSPACE_APPLY_EDIT] = apply_edit
    features["dtypeguard/verifyResult"] = verify_result
    features[types.WINDOW_SHOW_MESSAGE_REQUEST] = show_message_request
    features[types.WORKSPACE_CODE_LENS_REFRESH] = lens_refresh
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = inlay_refresh
    for method, func in features.items():
        client.feature(method)(func)
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client)


def capabilities(
    *, pull: bool = False, resolve: bool = True, document_changes: bool = True, progress: bool = True
) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            apply_edit=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=document_changes),
            configuration=False,
            code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True),
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None,
        ),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True, version_support=True),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=["quickfix", "source", "source.fixAll"])
                ),
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]) if resolve else None,
                data_support=True,
            ),
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            diagnostic=types.DiagnosticClientCapabilities() if pull else None,
        ),
        window=types.WindowClientCapabilities(work_done_progress=progress),
        notebook_document=types.NotebookDocumentClientCapabilities(synchronization=types.NotebookDocumentSyncClientCapabilities()),
    )


async def start(
    client: LanguageClient,
    settings: dict[str, Any] | None = None,
    trusted: bool | None = None,
    root: Path = ROOT,
    **caps: bool,
) -> types.InitializeResult:
    options: dict[str, Any] = {"settings": {"debounceMs": 0, **(settings or {})}}
    if trusted is not None:
        options["workspaceTrusted"] = trusted
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(**caps), root_uri=root.as_uri(), initialization_options=options
        )
    )


def open_doc(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> tuple[str, str]:
    text = path.read_text(encoding="utf-8") if text is None else text
    uri = path.resolve().as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=version, text=text)
        )
    )
    return uri, text


def change_doc(client: LanguageClient, uri: str, version: int, text: str) -> None:
    """A full-text change (the server advertises incremental; full is always allowed)."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def wait_published(
    client: LanguageClient, uri: str, version: int | None = None, timeout: float = 20.0
) -> list[types.Diagnostic]:
    """The diagnostics of the first publish for `version` (any publish if None)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for params in record(client).published.get(uri, []):
            if version is None or params.version == version:
                return list(params.diagnostics)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for {uri} version {version} within {timeout} s")


def offset(text: str, pos: types.Position) -> int:
    """UTF-16 LSP position -> string offset (lines end at \\r\\n, \\r or \\n, as in LSP)."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    if pos.line >= len(starts):
        return len(text)
    start = starts[pos.line]
    line = re.split(r"\r\n|\r|\n", text[start:], maxsplit=1)[0]
    units = 0
    for index, char in enumerate(line):
        if units >= pos.character:
            return start + index
        units += 2 if ord(char) > 0xFFFF else 1
    return start + len(line)


def apply_text_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    spans = sorted(((offset(text, e.range.start), offset(text, e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def apply_workspace_edit(text: str, uri: str, edit: types.WorkspaceEdit) -> str:
    edits: list[types.TextEdit] = []
    if edit.document_changes:
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.uri == uri
            edits += [e for e in change.edits if isinstance(e, types.TextEdit)]
    if edit.changes:
        edits += list(edit.changes.get(uri, []))
    return apply_text_edits(text, edits)


def fixes_or_skip() -> ModuleType:
    """The real `dtypeguard.fixes`; skip only when it is genuinely absent."""
    try:
        module = importlib.import_module("dtypeguard.fixes")
    except ImportError as exc:
        pytest.skip(f"dtypeguard.fixes is absent: {exc}")
    missing = [n for n in ("edits_for_fix", "fix_all", "setup_block_edits", "suppression_edit", "apply_edits") if not hasattr(module, n)]
    if missing:
        pytest.skip(f"dtypeguard.fixes lacks {', '.join(missing)}")
    return module


def whole(text: str) -> types.Range:
    lines = text.split("\n")
    return types.Range(start=types.Position(0, 0), end=types.Position(len(lines) - 1, len(lines[-1])))
