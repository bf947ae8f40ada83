"""The dtypeguard language server: pygls 2.x wiring and handlers.

Syntax errors while typing: the last findings of text that parsed stay published, plus the one
DG000 finding for the parse error (positions of the kept findings refer to the last good text,
clamped into the current one). They are replaced as soon as the text parses again.

Diagnostics are pushed (`textDocument/publishDiagnostics`) unless the client declares pull
support (`textDocument.diagnostic`), in which case they are answered on
`textDocument/diagnostic` only and `workspace/diagnostic/refresh` is sent when they change for a
reason other than an edit (configuration, verify).

Notebooks (`notebookDocument/*`, Python cells of any notebook type) are analysed as one
document, the script of their code cells in order; `lsp/notebooks.py` translates between
cells and that script, so every feature below works in cells too.

Every handler is guarded: an exception is logged to the client (`window/logMessage`) and a
request is answered with an LSP error; the server keeps serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
import threading
import traceback
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcRequestCancelled,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path, uri_scheme
from pygls.workspace import TextDocument, Workspace

from dtypeguard import __version__
from dtypeguard.config import Config, load_config
from dtypeguard.engine.parse import lines_with_ends
from dtypeguard.findings import Span
from dtypeguard.lsp import actions, convert
from dtypeguard.lsp.documents import Analysis, DocState, Documents
from dtypeguard.lsp.lens import (
    THROUGH,
    VERIFY_COMMAND,
    Verifier,
    message_type,
    spawn,
    verify_diagnostic,
    warning_diagnostics,
)
from dtypeguard.lsp.notebooks import Notebooks, NotebookState, NotebookView
from dtypeguard.lsp.settings import (
    Settings,
    parse_settings,
    settings_from_change,
    settings_from_init,
)

if TYPE_CHECKING:
    from dtypeguard.verify.result import VerifyResult

log = logging.getLogger(__name__)

FIX_ALL_COMMAND = "dtypeguard.fixAll"
SETUP_COMMAND = "dtypeguard.insertSetupBlock"
VERIFY_RESULT_NOTIFICATION = "dtypeguard/verifyResult"
HOVER_WAIT_S = 3.0
REQUEST_WAIT_S = 30.0

F = TypeVar("F", bound=Callable[..., Any])


# ---------------------------------------------------------------------------- protocol
@dataclass
class _MalformedRequest:
    id: int | str
    method: str
    error: JsonRpcException


class Protocol(LanguageServerProtocol):
    """pygls drops a request whose params do not deserialize without answering it; this answers
    it with InvalidParams so the client is not left waiting."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data and isinstance(data["id"], (int, str)):
                return _MalformedRequest(data["id"], str(data["method"]), exc)
            raise

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _MalformedRequest):
            text = f"malformed params for {message.method}"
            server = cast("DtypeguardServer", self._server)
            server.log(text, types.MessageType.Warning)
            self._send_response(message.id, None, JsonRpcInvalidParams(message=text).to_response_error())
            return
        super().handle_message(message)


# ---------------------------------------------------------------------------- documents


class _Document(TextDocument):
    """pygls splits a document into lines with `str.splitlines`, which also breaks at form feed,
    U+2028, U+0085 and other characters that are not line ends for an LSP client (only "\\r\\n",
    "\\r" and "\\n" are): an incremental edit below such a character was applied on the wrong
    line, and a fix computed from that text would have corrupted the user's file."""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(lines_with_ends(self.source))


class _Workspace(Workspace):
    def _create_text_document(
        self, doc_uri: str, source: str | None = None, version: int | None = None, language_id: str | None = None
    ) -> TextDocument:
        return _Document(
            doc_uri, source=source, version=version, language_id=language_id,
            sync_kind=self._sync_kind, position_codec=self._position_codec,
        )


# ---------------------------------------------------------------------------- server
class DtypeguardServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "dtypeguard", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithNotebook(notebook="*", cells=[types.NotebookCellLanguage(language="python")])],
            ),
            protocol_cls=Protocol,
        )
        self.notebooks = Notebooks()
        self.cells_pulled = False  # the client pulls cell diagnostics itself (then none are pushed)
        self.settings = Settings()
        self.trusted = True
        self.pull = False
        self.documents = Documents(self._text_of, self._config_for, self._on_analysis, self._on_analysis_error)
        self.verifier = Verifier()
        self._problems_seen: set[str] = set()
        self._internal_errors_seen: set[str] = set()
        self._cleaned = False

    # ---------------------------------------------------------------- plumbing
    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        log.log(logging.WARNING if kind <= types.MessageType.Warning else logging.INFO, "%s", message)
        with contextlib.suppress(Exception):  # no writer yet / gone
            self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def show(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        with contextlib.suppress(Exception):
            self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def report_server_error(self, error: Exception, source: Any) -> None:
        self.log(f"dtypeguard: {type(error).__name__}: {error}", types.MessageType.Error)

    def shutdown(self) -> None:  # JsonRPCServer.shutdown: end of the message loop
        self.cleanup()
        super().shutdown()  # type: ignore[no-untyped-call]

    def cleanup(self) -> None:
        """Cancel running verifies, close warm workers, stop the analysis thread (idempotent)."""
        if self._cleaned:
            return
        self._cleaned = True
        self.documents.close_all()
        self.verifier.close()

    @property
    def encoding(self) -> str:
        try:
            return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)
        except Exception:
            return types.PositionEncodingKind.Utf16

    @property
    def caps(self) -> types.ClientCapabilities:
        try:
            return self.client_capabilities or types.ClientCapabilities()
        except Exception:
            return types.ClientCapabilities()

    def path_of(self, uri: str) -> str | None:
        if uri_scheme(uri) != "file":
            return None
        return to_fs_path(uri)

    def _text_of(self, uri: str) -> str:
        if self.notebooks.is_notebook(uri):
            return self.notebooks.script_text(self.workspace, uri)
        return self.workspace.get_text_document(uri).source

    def notebook_of_cell(self, uri: str) -> str | None:
        """The notebook URI of an open notebook's cell URI, else None."""
        if self.notebooks.is_notebook(uri):
            return None
        nb = self.notebooks.notebook_of_cell(self.workspace, uri)
        return nb if nb is not None and self.notebooks.is_notebook(nb) else None

    def notebook_view(self, analysis: Analysis, uri: str) -> NotebookView:
        view = self.notebooks.view(uri, analysis.text)
        if view is None:
            raise JsonRpcRequestCancelled(message=f"{uri} changed; ask again")
        return view

    def cell_diagnostics(self, state: DocState) -> dict[str, list[types.Diagnostic]]:
        """A notebook's diagnostics per cell URI (every current cell, empty lists included)."""
        latest = state.latest
        chosen = latest if latest is not None and latest.usable else (state.good or latest)
        out: dict[str, list[types.Diagnostic]] = {}
        if chosen is not None:
            view = self.notebooks.view(state.uri, chosen.text)
            if view is not None:
                enabled = self._config_for(state.path).enabled("DG000", state.path)
                if not enabled:
                    view.script.cell_problems = {}
                findings = view.script.cell_findings(chosen.result.findings)
                out = self.notebooks.diagnostics(view, findings, self.encoding)
        nb_state = self.notebooks.open.get(state.uri)
        if nb_state is not None:
            for uri, diags in nb_state.verify.items():
                if uri in out:
                    out[uri] = out[uri] + diags
        return out

    def _config_for(self, path: str | None) -> Config:
        where = path or self.workspace.root_path
        base = load_config(where) if where else Config()
        config = base.merged(self.settings.config_overrides())
        if config.problems:
            self.report_problems(config.problems)
        return config

    def report_problems(self, problems: tuple[str, ...] | list[str]) -> None:
        new = [p for p in problems if p not in self._problems_seen]
        if not new:
            return
        self._problems_seen.update(new)
        for problem in new:
            self.log(f"dtypeguard configuration: {problem}", types.MessageType.Warning)
        more = f" (and {len(new) - 1} more, see the log)" if len(new) > 1 else ""
        self.show(f"dtypeguard: configuration problem: {new[0]}{more}", types.MessageType.Warning)

    def state(self, uri: str) -> DocState:
        state = self.documents.docs.get(uri)
        if state is None:
            raise JsonRpcInvalidParams(message=f"unknown document {uri!r}: it is not open")
        return state

    async def analysis(self, uri: str, timeout: float = REQUEST_WAIT_S) -> Analysis:
        self.state(uri)
        try:
            return await self.documents.analysis(uri, timeout)
        except KeyError as exc:
            raise JsonRpcRequestCancelled(message=f"{uri} was closed") from exc

    # ---------------------------------------------------------------- diagnostics
    def diagnostics(self, state: DocState) -> list[types.Diagnostic]:
        enc = self.encoding
        latest = state.latest
        out: list[types.Diagnostic] = []
        if latest is not None:
            if latest.usable:
                out = [convert.diagnostic(f, latest.lines, state.uri, enc) for f in latest.result.findings]
            else:
                good = state.good
                if good is not None:
                    out = [convert.diagnostic(f, good.lines, state.uri, enc) for f in good.result.findings]
                out += [convert.diagnostic(f, latest.lines, state.uri, enc) for f in latest.result.findings]
        return out + state.verify_diagnostics

    def publish(self, state: DocState) -> None:
        if self.notebooks.is_notebook(state.uri):
            # pushed even to a pull client until it pulls a cell: vscode-languageclient 9
            # pulls text documents but never notebook cells
            if not (self.pull and self.cells_pulled):
                self.publish_cells(state)
            return
        if self.pull:
            return
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=state.uri, diagnostics=self.diagnostics(state), version=state.version)
        )

    def publish_cells(self, state: DocState) -> None:
        by_cell = self.cell_diagnostics(state)
        nb_state = self.notebooks.open.get(state.uri)
        gone = (nb_state.published - set(by_cell)) if nb_state is not None else set()
        for uri, diags in by_cell.items():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diags))
        for uri in gone:  # cells deleted, or no longer Python
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if nb_state is not None:
            nb_state.published = set(by_cell)

    def clear(self, uri: str) -> None:
        if not self.pull:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def _on_analysis(self, state: DocState, analysis: Analysis) -> None:
        error = analysis.result.internal_error
        if error and error not in self._internal_errors_seen:
            self._internal_errors_seen.add(error)
            self.log(f"dtypeguard: analysis of {state.uri} failed inside the engine: {error}", types.MessageType.Error)
        self.publish(state)
        if self.pull and self.cells_pulled and self.notebooks.is_notebook(state.uri):
            self.refresh(diagnostics=True)  # an edit in one cell changes what other cells show

    def _on_analysis_error(self, uri: str, exc: BaseException) -> None:
        text = "".join(traceback.format_exception(exc))
        self.log(f"dtypeguard: analysis of {uri} raised:\n{text}", types.MessageType.Error)

    def refresh(self, diagnostics: bool = False, lenses: bool = False, inlay: bool = False) -> None:
        ws = self.caps.workspace
        if ws is None:
            return
        try:
            if diagnostics and self.pull and ws.diagnostics and ws.diagnostics.refresh_support:
                self.workspace_diagnostic_refresh(None)
            if lenses and ws.code_lens and ws.code_lens.refresh_support:
                self.workspace_code_lens_refresh(None)
            if inlay and ws.inlay_hint and ws.inlay_hint.refresh_support:
                self.workspace_inlay_hint_refresh(None)
        except Exception as exc:
            self.log(f"dtypeguard: refresh request failed: {exc!r}", types.MessageType.Warning)

    # ---------------------------------------------------------------- settings
    def apply_settings(self, settings: Settings) -> None:
        old = self.settings
        self.settings = settings
        self.documents.debounce_s = settings.debounce_ms / 1000.0
        self.documents.reanalyse_all()
        self.refresh(diagnostics=True, lenses=True, inlay=old.inlay_hints != settings.inlay_hints or settings.inlay_hints)

    def target(self, analysis: Analysis, state: DocState) -> actions.Target:
        ws_edit = self.caps.workspace.workspace_edit if self.caps.workspace else None
        return actions.Target(
            uri=state.uri, version=analysis.version, text=analysis.text, lines=analysis.lines,
            result=analysis.result, path=state.path, config=self._config_for(state.path),
            encoding=self.encoding, document_changes=bool(ws_edit and ws_edit.document_changes),
        )

    def lazy_actions(self) -> bool:
        td = self.caps.text_document
        ca = td.code_action if td else None
        support = ca.resolve_support if ca else None
        return bool(support and "edit" in support.properties)

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> bool:
        response = await self.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
        if not response.applied:
            self.log(f"dtypeguard: the client did not apply {label!r}: {response.failure_reason}", types.MessageType.Warning)
        return bool(response.applied)


# ---------------------------------------------------------------------------- guards
def _guard(server: DtypeguardServer, name: str, notification: bool = False) -> Callable[[F], F]:
    """Log any exception to the client; answer requests with an LSP error; never crash."""

    def report(exc: BaseException) -> None:
        if isinstance(exc, JsonRpcException):
            server.log(f"dtypeguard: {name}: {exc.message}", types.MessageType.Warning)
        else:
            text = "".join(traceback.format_exception(exc))
            server.log(f"dtypeguard: {name} failed:\n{text}", types.MessageType.Error)

    def failed(exc: Exception) -> None:
        """Log it; a notification just ends, a request gets an LSP error (never a crash)."""
        report(exc)
        if notification:
            return
        if isinstance(exc, JsonRpcException):
            raise exc
        raise JsonRpcInternalError(message=f"dtypeguard: {name} failed: {exc!r}") from exc

    def decorate(fn: F) -> F:
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await fn(*args, **kwargs)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    failed(exc)
                    return None

            return cast(F, async_wrapper)

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except Exception as exc:
                failed(exc)
                return None

        return cast(F, wrapper)

    return decorate


def _args(args: tuple[object, ...], count: int, name: str) -> list[object]:
    if not 1 <= len(args) <= count:
        raise JsonRpcInvalidParams(message=f"{name} takes {count} argument(s) (uri first), got {len(args)}")
    if not isinstance(args[0], str):
        raise JsonRpcInvalidParams(message=f"{name}: the first argument must be a document URI")
    return list(args) + [None] * (count - len(args))


# ---------------------------------------------------------------------------- features
def build_server() -> DtypeguardServer:
    server = DtypeguardServer()

    def feature(method: str, options: Any = None, notification: bool = False) -> Callable[[F], F]:
        def decorate(fn: F) -> F:
            server.feature(method, options)(_guard(server, method, notification)(fn))
            return fn

        return decorate

    def command(name: str) -> Callable[[F], F]:
        def decorate(fn: F) -> F:
            server.command(name)(_guard(server, name)(fn))
            return fn

        return decorate

    # ------------------------------------------------------------ life cycle
    @feature(types.INITIALIZE)
    def initialize(params: types.InitializeParams) -> None:
        if type(server.workspace) is Workspace:  # created by pygls just before this handler
            server.workspace.__class__ = _Workspace
        settings, trusted, problems = settings_from_init(params.initialization_options)
        server.settings = settings
        server.trusted = trusted
        server.documents.debounce_s = settings.debounce_ms / 1000.0
        if problems:
            server.report_problems(problems)
        td = params.capabilities.text_document
        if td is not None and td.diagnostic is not None:
            server.pull = True
            server.feature(
                types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(identifier="dtypeguard", inter_file_dependencies=False, workspace_diagnostics=False),
            )(_guard(server, types.TEXT_DOCUMENT_DIAGNOSTIC)(pull_diagnostics))

    @feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.cleanup()
        # pygls then cancels the other pending requests while iterating the dict their
        # callbacks remove themselves from ("dictionary changed size"): cancel them first.
        current = server.protocol.msg_id
        for msg_id, future in list(server.protocol._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()

    @feature(types.EXIT, notification=True)
    def exit_(params: None) -> None:
        server.cleanup()

    # ------------------------------------------------------------ documents
    @feature(types.TEXT_DOCUMENT_DID_OPEN, notification=True)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        server.documents.open(doc.uri, doc.version, server.path_of(doc.uri))

    @feature(types.TEXT_DOCUMENT_DID_CHANGE, notification=True)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        doc = params.text_document
        state = server.documents.change(doc.uri, doc.version)
        if state is None:
            server.log(f"dtypeguard: change for a document that is not open: {doc.uri}", types.MessageType.Warning)

    @feature(types.TEXT_DOCUMENT_DID_CLOSE, notification=True)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if server.documents.close(uri) is not None:
            server.verifier.forget(uri)
            server.clear(uri)

    # ------------------------------------------------------------ notebooks
    @feature(types.NOTEBOOK_DOCUMENT_DID_OPEN, notification=True)
    def notebook_did_open(params: types.DidOpenNotebookDocumentParams) -> None:
        nb = params.notebook_document
        server.notebooks.open[nb.uri] = NotebookState()
        server.documents.open(nb.uri, nb.version, server.path_of(nb.uri))

    @feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE, notification=True)
    def notebook_did_change(params: types.DidChangeNotebookDocumentParams) -> None:
        nb = params.notebook_document
        nb_state = server.notebooks.open.get(nb.uri)
        if nb_state is None:
            server.log(f"dtypeguard: change for a notebook that is not open: {nb.uri}", types.MessageType.Warning)
            return
        nb_state.verify.clear()  # a runtime error's line means nothing after an edit
        server.documents.change(nb.uri, nb.version)

    @feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE, notification=True)
    def notebook_did_close(params: types.DidCloseNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        nb_state = server.notebooks.open.pop(uri, None)
        if server.documents.close(uri) is not None:
            server.verifier.forget(uri)
        if nb_state is not None:
            for cell_uri in nb_state.published:
                server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[]))

    @feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION, notification=True)
    async def did_change_configuration(params: types.DidChangeConfigurationParams) -> None:
        raw = settings_from_change(params.settings)
        ws = server.caps.workspace
        if raw is None and ws is not None and ws.configuration:
            items = await server.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section="dtypeguard")])
            )
            raw = items[0] if items and isinstance(items[0], dict) else None
        if raw is None:
            return
        settings, problems = parse_settings(raw, server.settings)
        if problems:
            server.report_problems(problems)
        server.apply_settings(settings)

    async def pull_diagnostics(params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        uri = params.text_document.uri
        nb_uri = server.notebook_of_cell(uri)
        if nb_uri is not None:
            if not server.cells_pulled:  # from now on this client pulls cells: take back what was pushed
                server.cells_pulled = True
                for nb_state in server.notebooks.open.values():
                    for cell_uri in nb_state.published:
                        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[]))
                    nb_state.published = set()
            analysis = await server.analysis(nb_uri)
            nb_doc = server.state(nb_uri)
            result_id = f"{server.documents.generation}.{analysis.version}.{nb_doc.verify_epoch}"
            if params.previous_result_id == result_id:
                return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
            return types.RelatedFullDocumentDiagnosticReport(items=server.cell_diagnostics(nb_doc).get(uri, []), result_id=result_id)
        if uri not in server.documents.docs:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        analysis = await server.analysis(uri)
        state = server.state(uri)
        result_id = f"{server.documents.generation}.{analysis.version}.{state.verify_epoch}"
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=server.diagnostics(state), result_id=result_id)

    # ------------------------------------------------------------ hover
    @feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        nb_uri = server.notebook_of_cell(uri)
        if nb_uri is not None:
            return await cell_hover(params, nb_uri)
        server.state(uri)
        lines_now = convert.Lines(server._text_of(uri))
        if not 0 <= params.position.line < len(lines_now):
            raise JsonRpcInvalidParams(message=f"position line {params.position.line} is outside the document ({len(lines_now)} lines)")
        try:
            analysis = await server.analysis(uri, HOVER_WAIT_S)
        except TimeoutError:
            return None
        if not analysis.usable:
            return None
        line, col = convert.from_position(analysis.lines, params.position, server.encoding)
        parts: list[str] = []
        try:
            from dtypeguard.hover import hover_markdown

            markdown = hover_markdown(analysis.result, line, col)
            if markdown:
                parts.append(markdown.strip())
        except Exception as exc:
            server.log(f"dtypeguard: hover_markdown failed: {exc!r}", types.MessageType.Error)
        parts += _explanations(analysis, line, col)
        if not parts:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))

    async def cell_hover(params: types.HoverParams, nb_uri: str) -> types.Hover | None:
        try:
            analysis = await server.analysis(nb_uri, HOVER_WAIT_S)
        except TimeoutError:
            return None
        view = server.notebook_view(analysis, nb_uri)
        cell = view.index_of(params.text_document.uri)
        if cell is None:
            return None
        parts: list[str] = []
        lines = view.cell_lines(cell)
        line, col = convert.from_position(lines, params.position, server.encoding)
        at = view.to_script(cell, Span(line, col, line, col))
        if analysis.usable and at is not None:
            from dtypeguard.hover import hover_markdown

            markdown = hover_markdown(analysis.result, at.line, at.col)
            if markdown:
                parts.append(markdown.strip())
            parts += _explanations(analysis, at.line, at.col)
        parts = [view.script.rewrite_lines(p) for p in parts]
        note = view.order_notes.get(cell)
        if note:
            parts.append(note)
        if not parts:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))

    def _explanations(analysis: Analysis, line: int, col: int) -> list[str]:
        from dtypeguard.rules import BY_CODE

        out: list[str] = []
        seen: set[str] = set()
        for finding in analysis.result.findings:
            fails = any(r.message.startswith("fails here") and r.span.contains(line, col) for r in finding.related)
            if not (finding.span.contains(line, col) or fails) or finding.code in seen:
                continue
            seen.add(finding.code)
            rule = BY_CODE.get(finding.code)
            text = f"**{finding.code}**"
            if fails and not finding.span.contains(line, col):
                text = f"This line fails because of line {finding.span.line}: {finding.message}.\n\n{text}"
            if rule is not None:
                text += f" ({rule.name}): {rule.explanation}"
                if rule.url:
                    text += f" [Documentation]({rule.url})"
            if finding.note:
                text += f"\n\n{finding.note}"
            out.append(text)
        return out

    # ------------------------------------------------------------ code actions
    @feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND, actions.SETUP_KIND],
            resolve_provider=True,
        ),
    )
    async def code_action(params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        nb_uri = server.notebook_of_cell(uri)
        if nb_uri is not None:
            return await cell_code_action(params, nb_uri)
        state = server.state(uri)
        analysis = await server.analysis(uri)
        if not analysis.usable:
            return []
        target = server.target(analysis, state)
        rng = convert.from_range(analysis.lines, params.range, server.encoding)
        by_finding = {f: convert.diagnostic(f, analysis.lines, uri, server.encoding) for f in analysis.result.findings}
        only = list(params.context.only) if params.context.only else None
        lazy = server.lazy_actions()
        if lazy:
            return actions.code_actions(target, rng, only, params.context.diagnostics, by_finding, True)
        future, _thread = spawn(
            lambda: actions.code_actions(target, rng, only, params.context.diagnostics, by_finding, False),
            "dtypeguard-actions",
        )
        return await future

    def to_cells(view: NotebookView, edit: types.WorkspaceEdit | None) -> types.WorkspaceEdit | None:
        if edit is None:
            return None
        ws_edit = server.caps.workspace.workspace_edit if server.caps.workspace else None
        return server.notebooks.cell_edit(view, server.workspace, edit, server.encoding, bool(ws_edit and ws_edit.document_changes))

    async def cell_code_action(params: types.CodeActionParams, nb_uri: str) -> list[types.CodeAction]:
        state = server.state(nb_uri)
        analysis = await server.analysis(nb_uri)
        if not analysis.usable:
            return []
        view = server.notebook_view(analysis, nb_uri)
        cell = view.index_of(params.text_document.uri)
        if cell is None:
            return []
        rng = view.to_script(cell, convert.from_range(view.cell_lines(cell), params.range, server.encoding))
        if rng is None:
            return []
        target = server.target(analysis, state)
        by_finding = {
            cf.script: server.notebooks.diagnostic(view, cf, server.encoding)
            for cf in view.script.cell_findings(analysis.result.findings) if cf.script is not None
        }
        only = list(params.context.only) if params.context.only else None
        if server.lazy_actions():
            return actions.code_actions(target, rng, only, params.context.diagnostics, by_finding, True)
        future, _thread = spawn(
            lambda: actions.code_actions(target, rng, only, params.context.diagnostics, by_finding, False),
            "dtypeguard-actions",
        )
        out: list[types.CodeAction] = []
        for action in await future:
            action.edit = to_cells(view, action.edit)
            if action.edit is not None:
                out.append(action)
        return out

    @feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(action: types.CodeAction) -> types.CodeAction:
        data = action.data
        if not isinstance(data, dict) or not isinstance(data.get("uri"), str):
            raise JsonRpcInvalidParams(message="this code action carries no dtypeguard data")
        uri = data["uri"]
        state = server.state(uri)
        analysis = await server.analysis(uri)
        if not analysis.usable:
            raise JsonRpcInvalidParams(message="the document does not parse now; fix the syntax error first")
        target = server.target(analysis, state)
        future, _thread = spawn(lambda: actions.compute_edit(target, data), "dtypeguard-resolve")
        edit = await future
        if edit is not None and server.notebooks.is_notebook(uri):
            edit = to_cells(server.notebook_view(analysis, uri), edit)
        if edit is not None:
            action.edit = edit
        return action

    # ------------------------------------------------------------ commands
    async def _document_command(uri: str, compute: Any, label: str, nothing: str) -> dict[str, Any]:
        """Compute a whole-document edit off the event loop and ask the client to apply it."""
        uri = server.notebook_of_cell(uri) or uri
        state = server.state(uri)
        analysis = await server.analysis(uri)
        if not analysis.usable:
            return {"applied": False, "reason": "the document does not parse"}
        target = server.target(analysis, state)
        future, _thread = spawn(lambda: compute(target), f"dtypeguard-{label}")
        edit = await future
        if edit is not None and server.notebooks.is_notebook(uri):
            edit = to_cells(server.notebook_view(analysis, uri), edit)
        if edit is None:
            return {"applied": False, "reason": nothing}
        return {"applied": await server.apply_edit(edit, f"dtypeguard: {label}")}

    @command(FIX_ALL_COMMAND)
    async def fix_all(ls: DtypeguardServer, *args: object) -> dict[str, Any]:
        uri = cast(str, _args(args, 1, FIX_ALL_COMMAND)[0])
        return await _document_command(uri, actions.fix_all_edit, "fix all", "nothing to fix")

    @command(SETUP_COMMAND)
    async def insert_setup(ls: DtypeguardServer, *args: object) -> dict[str, Any]:
        uri = cast(str, _args(args, 1, SETUP_COMMAND)[0])
        return await _document_command(uri, actions.setup_edit, "insert setup block", "the setup block is already there")

    @command(VERIFY_COMMAND)
    async def verify(ls: DtypeguardServer, *args: object) -> dict[str, Any]:
        uri_raw, device_raw, mode = _args(args, 3, VERIFY_COMMAND)
        if mode not in (None, THROUGH):
            raise JsonRpcInvalidParams(message=f"{VERIFY_COMMAND}: the third argument may only be {THROUGH!r}")
        uri = cast(str, uri_raw)
        device = device_raw if device_raw is not None else server.settings.verify_device
        if device not in ("cpu", "cuda", "auto"):
            raise JsonRpcInvalidParams(message=f"{VERIFY_COMMAND}: device must be cpu, cuda or auto, not {device!r}")
        if not server.trusted:
            message = "dtypeguard: Verify runs your code, so it is off until you trust this workspace."
            server.show(message, types.MessageType.Warning)
            raise JsonRpcException(message=message, code=-32803)  # RequestFailed
        uri = server.notebook_of_cell(uri) or uri
        path = server.path_of(uri)
        if path is None:
            raise JsonRpcInvalidParams(message=f"{VERIFY_COMMAND}: only files on disk can be verified, not {uri}")
        return await run_verify(uri, path, str(device), through=mode == THROUGH)

    async def verify_run(
        uri: str, path: str, device: str, cancel: threading.Event, through: bool = False,
        on_phase: Callable[[str], None] | None = None,
    ) -> VerifyResult:
        """The run itself: the file, or a notebook's current code cells as a temporary script
        (the error is then mapped to its cell; `cell` becomes the code cell's number)."""
        python = server.settings.python
        timeout = server.settings.verify_timeout
        if not server.notebooks.is_notebook(uri):
            return await server.verifier.run(uri, path, device, python, timeout, cancel, through, on_phase)
        from dtypeguard.notebook import map_verify_result, temporary_script

        view = server.notebooks.build(server.workspace, uri, for_verify=path)
        with temporary_script(view.script, path) as script_path:
            result = await server.verifier.run(uri, script_path, device, python, timeout, cancel, through, on_phase)
        map_verify_result(result, view.script, script_path, path)
        nb_state = server.notebooks.open.get(uri)
        if nb_state is not None:
            nb_state.verify = {}
            cell = result.cell - 1 if result.cell is not None else None
            if cell is not None and cell in view.uris:
                diag = verify_diagnostic(result, path, view.cell_lines(cell), server.encoding)
                if diag is not None:
                    nb_state.verify[view.uris[cell]] = [diag]
                result.cell = sorted(view.uris).index(cell) + 1  # as "code cell N" says
        return result

    async def run_verify(uri: str, path: str, device: str, through: bool = False) -> dict[str, Any]:
        cancel = threading.Event()
        token = await begin_progress(device + (", run-through" if through else ""), path, cancel)
        server.refresh(lenses=True)
        python = server.settings.python

        def on_phase(phase: str) -> None:  # run-through: name each phase as it is reached
            if token is not None:
                with contextlib.suppress(Exception):
                    server.work_done_progress.report(token, types.WorkDoneProgressReport(message=f"reached {phase}"))
            server.refresh(lenses=True)

        try:
            result = await verify_run(uri, path, device, cancel, through, on_phase if through else None)
        except asyncio.CancelledError:
            cancel.set()
            end_progress(token, "cancelled")
            raise
        except BaseException:
            end_progress(token, "failed")
            raise
        summary = result.summary()
        end_progress(token, summary)
        if result.status == "no-torch":
            where = python or "the server's own Python"
            summary = f"{summary} (set the dtypeguard interpreter setting to a Python with torch; now: {where})"
        state = server.documents.docs.get(uri)
        if state is not None and server.notebooks.is_notebook(uri):
            state.verify_epoch += 1
            server.publish(state)
            server.refresh(diagnostics=True)
        elif state is not None:
            lines = state.latest.lines if state.latest is not None else convert.Lines(server._text_of(uri))
            diag = verify_diagnostic(result, path, lines, server.encoding)
            state.verify_diagnostics = [diag] if diag is not None else []
            state.verify_diagnostics += warning_diagnostics(result, path, lines, server.encoding)
            state.verify_epoch += 1
            server.publish(state)
            server.refresh(diagnostics=True)
        server.refresh(lenses=True)
        payload = {"uri": uri, "status": result.status, "summary": summary, "line": result.line}
        try:
            server.protocol.notify(VERIFY_RESULT_NOTIFICATION, payload)
        except Exception as exc:
            server.log(f"dtypeguard: cannot send {VERIFY_RESULT_NOTIFICATION}: {exc!r}", types.MessageType.Warning)
        server.show(f"dtypeguard verify: {summary}", message_type(result))
        out = result.to_json()
        out["uri"] = uri
        out["summary"] = summary
        return out

    async def begin_progress(device: str, path: str, cancel: threading.Event) -> str | None:
        window = server.caps.window
        if window is None or not window.work_done_progress:
            return None
        token = f"dtypeguard-verify-{uuid.uuid4()}"
        try:
            await asyncio.wait_for(server.work_done_progress.create_async(token), 10)
        except Exception as exc:
            server.log(f"dtypeguard: no progress for verify: {exc!r}", types.MessageType.Info)
            return None
        name = path.rsplit("/", 1)[-1]
        server.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="dtypeguard verify", message=f"{name} on {device}", cancellable=True)
        )
        cancelled = server.work_done_progress.tokens.get(token)
        if cancelled is not None:
            cancelled.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)
        return token

    def end_progress(token: str | None, message: str) -> None:
        if token is None:
            return
        try:
            server.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
        finally:
            server.work_done_progress.tokens.pop(token, None)

    # ------------------------------------------------------------ code lens
    @feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def code_lens(params: types.CodeLensParams) -> list[types.CodeLens]:
        uri = params.text_document.uri
        nb_uri = server.notebook_of_cell(uri)
        if nb_uri is not None:
            return await cell_code_lens(uri, nb_uri)
        state = server.state(uri)
        if not server.trusted:
            return []
        try:
            analysis: Analysis | None = await server.analysis(uri, HOVER_WAIT_S)
        except TimeoutError:
            analysis = None
        if analysis is None or not analysis.usable:
            analysis = state.good
        if analysis is None:
            return []
        if analysis.result.optimizer_sites:
            # a click is likely: import torch now (no user code runs) so it answers in ~1 s
            server.verifier.prewarm(server.settings.python, "cpu")
        return server.verifier.lenses(uri, analysis.result.optimizer_sites, analysis.lines, server.encoding)

    async def cell_code_lens(uri: str, nb_uri: str) -> list[types.CodeLens]:
        """The Verify lenses go on the first cell that builds an optimizer, above it."""
        state = server.state(nb_uri)
        if not server.trusted:
            return []
        try:
            analysis: Analysis | None = await server.analysis(nb_uri, HOVER_WAIT_S)
        except TimeoutError:
            analysis = None
        if analysis is None or not analysis.usable:
            analysis = state.good
        if analysis is None or not analysis.result.optimizer_sites:
            return []
        view = server.notebooks.view(nb_uri, analysis.text)
        if view is None:
            return []
        first = view.script.cell_span(min(span for span, _ in analysis.result.optimizer_sites))
        if first is None or view.uris.get(first[0]) != uri:
            return []
        cls = next(c for span, c in analysis.result.optimizer_sites if view.script.cell_span(span) == first)
        server.verifier.prewarm(server.settings.python, "cpu")
        return server.verifier.lenses(nb_uri, [(first[1], cls)], view.cell_lines(first[0]), server.encoding)

    # ------------------------------------------------------------ inlay hints
    @feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hint(params: types.InlayHintParams) -> list[types.InlayHint]:
        uri = params.text_document.uri
        nb_uri = server.notebook_of_cell(uri)
        if nb_uri is None:
            server.state(uri)
        if not server.settings.inlay_hints:
            return []
        if nb_uri is not None:
            return await cell_inlay_hints(params, nb_uri)
        try:
            analysis = await server.analysis(uri, HOVER_WAIT_S)
        except TimeoutError:
            return []
        if not analysis.usable:
            return []
        span = convert.from_range(analysis.lines, params.range, server.encoding)
        try:
            from dtypeguard.hover import inlay_hints
        except Exception as exc:
            server.log(f"dtypeguard: inlay hints unavailable: {exc!r}", types.MessageType.Warning)
            return []
        out: list[types.InlayHint] = []
        for hint in inlay_hints(analysis.result, span.line, span.end_line):
            out.append(types.InlayHint(
                position=convert.position(analysis.lines, hint.line, hint.col, server.encoding),
                label=hint.label,
                kind=types.InlayHintKind.Type,
                tooltip=hint.tooltip or None,
                padding_left=True,
            ))
        return out

    async def cell_inlay_hints(params: types.InlayHintParams, nb_uri: str) -> list[types.InlayHint]:
        try:
            analysis = await server.analysis(nb_uri, HOVER_WAIT_S)
        except TimeoutError:
            return []
        if not analysis.usable:
            return []
        view = server.notebook_view(analysis, nb_uri)
        cell = view.index_of(params.text_document.uri)
        if cell is None:
            return []
        lines = view.cell_lines(cell)
        span = view.to_script(cell, convert.from_range(lines, params.range, server.encoding))
        if span is None:
            return []
        from dtypeguard.hover import inlay_hints

        out: list[types.InlayHint] = []
        for hint in inlay_hints(analysis.result, span.line, span.end_line):
            where = view.script.locate(hint.line)
            if where is None or where[0] != cell:
                continue
            out.append(types.InlayHint(
                position=convert.position(lines, where[1], hint.col, server.encoding), label=hint.label,
                kind=types.InlayHintKind.Type, tooltip=view.script.rewrite_lines(hint.tooltip) or None, padding_left=True,
            ))
        return out

    return server
