"""The session: the state every handler shares, and what a handler may ask of the client.

The handlers (`sync`, `diagnostics`, `hover`, `inlay`, `actions`, `lens`, `verify`,
`fixverify`, `configuration`, `lifecycle`) are top-level functions taking a `Session` first, so each can be
read by its name and called in a test without a client: the session holds the open documents
and their analyses, the open notebooks, the editor settings, workspace trust, the verify runs,
and the few helpers more than one handler needs (the document state of a URI or an error, the
analysis of its current text, logging, refresh requests).

Everything the session sends goes through `client`, typed as the small `Client` protocol below
rather than as pygls's server class: `server.py`'s `DtypeguardServer` is one (pygls provides
all of it but `notify` and `cancel_other_requests`), and a test can pass a recorder instead.

Everything here runs on the event loop; the analysis itself runs on the thread of `Documents`.
"""

from __future__ import annotations

import contextlib
import logging
import traceback
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcRequestCancelled
from pygls.progress import Progress
from pygls.uris import to_fs_path, uri_scheme
from pygls.workspace import Workspace

from dtypeguard.config import Config, load_config
from dtypeguard.lsp.documents import Analysis, DocState, Documents
from dtypeguard.lsp.notebooks import Notebooks, NotebookView
from dtypeguard.lsp.settings import Settings
from dtypeguard.lsp.verifier import Verifier

log = logging.getLogger(__name__)

HOVER_WAIT_S = 3.0  # hovers, lenses and inlay hints give up (answer nothing) after this
REQUEST_WAIT_S = 30.0  # what other requests wait for an analysis


class Client(Protocol):
    """What the handlers use of the other end: pygls's `LanguageServer` has all of it but
    `notify` and `cancel_other_requests` (see `server.DtypeguardServer`)."""

    @property
    def workspace(self) -> Workspace: ...

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    @property
    def work_done_progress(self) -> Progress: ...

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None: ...

    def window_log_message(self, params: types.LogMessageParams) -> None: ...

    def window_show_message(self, params: types.ShowMessageParams) -> None: ...

    def window_show_message_request_async(
        self, params: types.ShowMessageRequestParams
    ) -> Awaitable[types.MessageActionItem | None]: ...

    def workspace_diagnostic_refresh(self, params: None) -> object: ...

    def workspace_code_lens_refresh(self, params: None) -> object: ...

    def workspace_inlay_hint_refresh(self, params: None) -> object: ...

    def workspace_apply_edit_async(self, params: types.ApplyWorkspaceEditParams) -> Awaitable[types.ApplyWorkspaceEditResult]: ...

    def workspace_configuration_async(self, params: types.ConfigurationParams) -> Awaitable[Sequence[Any | None]]: ...

    def notify(self, method: str, params: Any) -> None:
        """Send a notification of the server's own (`dtypeguard/verifyResult`)."""

    def cancel_other_requests(self) -> None:
        """Cancel every pending request but the one being answered (on shutdown)."""


OnAnalysis = Callable[["Session", DocState, Analysis], None]


class Session:
    """The server's state between messages (event loop only)."""

    def __init__(self, client: Client, on_analysis: OnAnalysis) -> None:
        """`on_analysis` gets every analysis kept (the wiring passes `diagnostics.on_analysis`,
        which publishes it: this module imports no handler module)."""
        self.client = client
        self.notebooks = Notebooks()
        self.cells_pulled = False  # the client pulls cell diagnostics itself (then none are pushed)
        self.settings = Settings()
        self.trusted = True
        self.pull = False  # the client pulls diagnostics (`textDocument/diagnostic`)
        self.documents = Documents(
            self.text_of, self.config_for, lambda state, analysis: on_analysis(self, state, analysis), self.analysis_failed
        )
        self.verifier = Verifier()
        self.problems_seen: set[str] = set()
        self.workspace_scan = 0  # the generation of the newest workspace scan (workspace.py)
        self.workspace_published: set[str] = set()  # files not open that have workspace diagnostics
        self.internal_errors_seen: set[str] = set()
        # per document: its findings rooted in other files (file, span, code, message)
        self.roots_in: dict[str, frozenset[tuple[str, object, str, str]]] = {}
        self._cleaned = False

    # ---------------------------------------------------------------- messages to the user
    def log(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        log.log(logging.WARNING if kind <= types.MessageType.Warning else logging.INFO, "%s", message)
        with contextlib.suppress(Exception):  # no writer yet / gone
            self.client.window_log_message(types.LogMessageParams(type=kind, message=message))

    def show(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        with contextlib.suppress(Exception):
            self.client.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def report_problems(self, problems: tuple[str, ...] | list[str]) -> None:
        """Configuration problems: each logged once, the first new ones shown once."""
        new = [p for p in problems if p not in self.problems_seen]
        if not new:
            return
        self.problems_seen.update(new)
        for problem in new:
            self.log(f"dtypeguard configuration: {problem}", types.MessageType.Warning)
        more = f" (and {len(new) - 1} more, see the log)" if len(new) > 1 else ""
        self.show(f"dtypeguard: configuration problem: {new[0]}{more}", types.MessageType.Warning)

    def refresh(self, diagnostics: bool = False, lenses: bool = False, inlay: bool = False) -> None:
        """Ask the client to pull again what it supports refreshing."""
        ws = self.caps.workspace
        if ws is None:
            return
        try:
            if diagnostics and self.pull and ws.diagnostics and ws.diagnostics.refresh_support:
                self.client.workspace_diagnostic_refresh(None)
            if lenses and ws.code_lens and ws.code_lens.refresh_support:
                self.client.workspace_code_lens_refresh(None)
            if inlay and ws.inlay_hint and ws.inlay_hint.refresh_support:
                self.client.workspace_inlay_hint_refresh(None)
        except Exception as exc:
            self.log(f"dtypeguard: refresh request failed: {exc!r}", types.MessageType.Warning)

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> bool:
        response = await self.client.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))
        if not response.applied:
            self.log(f"dtypeguard: the client did not apply {label!r}: {response.failure_reason}", types.MessageType.Warning)
        return bool(response.applied)

    # ---------------------------------------------------------------- the client
    @property
    def workspace(self) -> Workspace:
        return self.client.workspace

    @property
    def encoding(self) -> str:
        try:
            return str(self.client.workspace.position_encoding or types.PositionEncodingKind.Utf16)
        except Exception:
            return types.PositionEncodingKind.Utf16

    @property
    def caps(self) -> types.ClientCapabilities:
        try:
            return self.client.client_capabilities or types.ClientCapabilities()
        except Exception:
            return types.ClientCapabilities()

    @property
    def document_changes(self) -> bool:
        """The client takes versioned `TextDocumentEdit`s in a workspace edit."""
        ws_edit = self.caps.workspace.workspace_edit if self.caps.workspace else None
        return bool(ws_edit and ws_edit.document_changes)

    # ---------------------------------------------------------------- documents
    @staticmethod
    def path_of(uri: str) -> str | None:
        if uri_scheme(uri) != "file":
            return None
        return to_fs_path(uri)

    def text_of(self, uri: str) -> str:
        """The text `Documents` analyses: a file's text, or a notebook's script."""
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

    def config_for(self, path: str | None) -> Config:
        """The configuration a file is checked with: its pyproject.toml, then the settings."""
        where = path or self.workspace.root_path
        base = load_config(where) if where else Config()
        config = base.merged(self.settings.config_overrides())
        if config.problems:
            self.report_problems(config.problems)
        return config

    def state(self, uri: str) -> DocState:
        """The open document's state; a request about a document that is not open is invalid."""
        state = self.documents.docs.get(uri)
        if state is None:
            raise JsonRpcInvalidParams(message=f"unknown document {uri!r}: it is not open")
        return state

    async def analysis(self, uri: str, timeout: float = REQUEST_WAIT_S) -> Analysis:
        """The analysis of the document's current text (waits for it)."""
        self.state(uri)
        try:
            return await self.documents.analysis(uri, timeout)
        except KeyError as exc:
            raise JsonRpcRequestCancelled(message=f"{uri} was closed") from exc

    # ---------------------------------------------------------------- analyses
    def analysis_failed(self, uri: str, exc: BaseException) -> None:
        text = "".join(traceback.format_exception(exc))
        self.log(f"dtypeguard: analysis of {uri} raised:\n{text}", types.MessageType.Error)

    # ---------------------------------------------------------------- end
    def cleanup(self) -> None:
        """Cancel running verifies, close warm workers, stop the analysis thread (idempotent)."""
        if self._cleaned:
            return
        self._cleaned = True
        self.documents.close_all()
        self.verifier.close()


def command_args(args: tuple[object, ...], count: int, name: str) -> list[object]:
    """A command's arguments padded to `count` with None; the first must be a document URI."""
    if not 1 <= len(args) <= count:
        raise JsonRpcInvalidParams(message=f"{name} takes {count} argument(s) (uri first), got {len(args)}")
    if not isinstance(args[0], str):
        raise JsonRpcInvalidParams(message=f"{name}: the first argument must be a document URI")
    return list(args) + [None] * (count - len(args))
