"""The dtypeguard language server: pygls 2.x wiring, and nothing else.

`build_server` makes the pygls server and its `Session`, and registers each LSP method and
command to the handler that answers it; the handlers are top-level functions of one module per
concern, so "what happens on didChange" is `sync.did_change`:

    initialize, shutdown, exit                       lifecycle.py
    textDocument/did{Open,Change,Close}              sync.py
    notebookDocument/did{Open,Change,Close}          sync.py
    workspace/didChangeConfiguration                 configuration.py
    textDocument/diagnostic (pull clients only)      diagnostics.py (and the pushes)
    textDocument/hover                               hover.py
    textDocument/inlayHint                           inlay.py
    textDocument/codeAction, codeAction/resolve      actions.py
    dtypeguard.fixAll, dtypeguard.insertSetupBlock   actions.py
    textDocument/codeLens                            lens.py
    dtypeguard.verify                                verify.py
    dtypeguard.fixAndVerify, cancelFixAndVerify      fixverify.py

Every handler is guarded: an exception is logged to the client (`window/logMessage`) and a
request is answered with an LSP error; the server keeps serving. A request whose params do not
deserialize is answered with InvalidParams (`Protocol`). Handler modules never import this one.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from dtypeguard import __version__
from dtypeguard.lsp import (
    actions,
    configuration,
    diagnostics,
    fixverify,
    hover,
    inlay,
    lens,
    lifecycle,
    sync,
    verify,
)
from dtypeguard.lsp.session import Session
from dtypeguard.lsp.verifier import CANCEL_FIX_VERIFY_COMMAND, FIX_VERIFY_COMMAND, VERIFY_COMMAND

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
            server.session.log(text, types.MessageType.Warning)
            self._send_response(message.id, None, JsonRpcInvalidParams(message=text).to_response_error())
            return
        super().handle_message(message)


# ---------------------------------------------------------------------------- server
class DtypeguardServer(LanguageServer):
    """pygls's server with the capabilities dtypeguard declares up front; it is the session's
    `Client` (pygls provides all of it but `notify` and `cancel_other_requests`)."""

    def __init__(self) -> None:
        super().__init__(
            "dtypeguard", __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[types.NotebookDocumentFilterWithNotebook(notebook="*", cells=[types.NotebookCellLanguage(language="python")])],
            ),
            protocol_cls=Protocol,
        )
        self.session = Session(self, diagnostics.on_analysis)

    def notify(self, method: str, params: Any) -> None:
        self.protocol.notify(method, params)

    def cancel_other_requests(self) -> None:
        current = self.protocol.msg_id
        for msg_id, future in list(self.protocol._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()

    def report_server_error(self, error: Exception, source: Any) -> None:
        self.session.log(f"dtypeguard: {type(error).__name__}: {error}", types.MessageType.Error)

    def shutdown(self) -> None:  # JsonRPCServer.shutdown: end of the message loop
        self.cleanup()
        super().shutdown()  # type: ignore[no-untyped-call]

    def cleanup(self) -> None:
        """Cancel running verifies, close warm workers, stop the analysis thread (idempotent)."""
        self.session.cleanup()


# ---------------------------------------------------------------------------- guards
def _guard(session: Session, name: str, notification: bool = False) -> Callable[[F], F]:
    """Log any exception to the client; answer requests with an LSP error; never crash."""

    def report(exc: BaseException) -> None:
        if isinstance(exc, JsonRpcException):
            session.log(f"dtypeguard: {name}: {exc.message}", types.MessageType.Warning)
        else:
            text = "".join(traceback.format_exception(exc))
            session.log(f"dtypeguard: {name} failed:\n{text}", types.MessageType.Error)

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


# ---------------------------------------------------------------------------- wiring
Handler = Callable[[Session, Any], Any]
CommandHandler = Callable[..., Awaitable[Any]]


def _feature(server: DtypeguardServer, method: str, handler: Handler, options: Any = None, notification: bool = False) -> None:
    """Register `handler(session, params)` for `method`, guarded."""
    session = server.session
    # `params: Any`: pygls would pass the server to a first parameter named `ls` or annotated
    # with a class the server is an instance of (`object` would be)
    call: Callable[[Any], Any]
    if inspect.iscoroutinefunction(handler):

        async def call_async(params: Any) -> Any:
            return await handler(session, params)

        call = call_async
    else:

        def call_sync(params: Any) -> Any:
            return handler(session, params)

        call = call_sync
    server.feature(method, options)(_guard(session, method, notification)(call))


def _command(server: DtypeguardServer, name: str, handler: CommandHandler) -> None:
    """Register `handler(session, *arguments)` for the command `name`, guarded."""
    session = server.session

    # pygls passes the server to a first parameter named `ls` and the command's arguments,
    # unconverted, to `*args`
    async def call(ls: Any, *args: object) -> Any:
        return await handler(session, *args)

    server.command(name)(_guard(session, name)(call))


def build_server() -> DtypeguardServer:
    server = DtypeguardServer()

    def initialize(session: Session, params: types.InitializeParams) -> None:
        lifecycle.initialize(session, params)
        if session.pull:  # registered here: pygls computes the capabilities after this handler
            _feature(server, types.TEXT_DOCUMENT_DIAGNOSTIC, diagnostics.text_document_diagnostic, diagnostics.PULL_OPTIONS)

    _feature(server, types.INITIALIZE, initialize)
    _feature(server, types.INITIALIZED, lifecycle.initialized, notification=True)
    _feature(server, types.SHUTDOWN, lifecycle.shutdown)
    _feature(server, types.EXIT, lifecycle.exit_, notification=True)

    _feature(server, types.TEXT_DOCUMENT_DID_OPEN, sync.did_open, notification=True)
    _feature(server, types.TEXT_DOCUMENT_DID_CHANGE, sync.did_change, notification=True)
    _feature(server, types.TEXT_DOCUMENT_DID_CLOSE, sync.did_close, notification=True)
    _feature(server, types.NOTEBOOK_DOCUMENT_DID_OPEN, sync.notebook_did_open, notification=True)
    _feature(server, types.NOTEBOOK_DOCUMENT_DID_CHANGE, sync.notebook_did_change, notification=True)
    _feature(server, types.NOTEBOOK_DOCUMENT_DID_CLOSE, sync.notebook_did_close, notification=True)
    _feature(server, types.WORKSPACE_DID_CHANGE_CONFIGURATION, configuration.did_change_configuration, notification=True)

    _feature(server, types.TEXT_DOCUMENT_HOVER, hover.hover)
    _feature(server, types.TEXT_DOCUMENT_CODE_ACTION, actions.code_action, actions.OPTIONS)
    _feature(server, types.CODE_ACTION_RESOLVE, actions.code_action_resolve)
    _command(server, actions.FIX_ALL_COMMAND, actions.fix_all)
    _command(server, actions.SETUP_COMMAND, actions.insert_setup)
    _command(server, VERIFY_COMMAND, verify.verify)
    _command(server, FIX_VERIFY_COMMAND, fixverify.fix_and_verify)
    _command(server, CANCEL_FIX_VERIFY_COMMAND, fixverify.cancel_fix_and_verify)
    _feature(server, types.TEXT_DOCUMENT_CODE_LENS, lens.code_lens, lens.OPTIONS)
    _feature(server, types.TEXT_DOCUMENT_INLAY_HINT, inlay.inlay_hint, inlay.OPTIONS)
    return server
