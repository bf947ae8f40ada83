"""Life cycle: `initialize`, `shutdown`, `exit`.

`initialize` reads `initializationOptions` (settings and workspace trust, docs/lsp-contract.md),
notes whether the client pulls diagnostics (`server.py` then registers
`textDocument/diagnostic`, before pygls computes the capabilities it answers with), and puts a
`sync.SyncedWorkspace` in place of pygls's workspace so documents split lines as LSP clients
do. `shutdown` and `exit` both clean up (idempotent): running verifies are cancelled, warm
workers closed, the analysis thread stopped; for a client that vanishes without either, the
same cleanup runs when the message loop ends (`server.DtypeguardServer.shutdown`, `cmd.run`).
"""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import Workspace

from dtypeguard.lsp import workspace
from dtypeguard.lsp.session import Session
from dtypeguard.lsp.settings import settings_from_init
from dtypeguard.lsp.sync import SyncedWorkspace


def initialize(session: Session, params: types.InitializeParams) -> None:
    workspace = session.workspace
    if type(workspace) is Workspace:  # created by pygls just before this handler
        workspace.__class__ = SyncedWorkspace
    settings, trusted, problems = settings_from_init(params.initialization_options)
    session.settings = settings
    session.trusted = trusted
    session.documents.debounce_s = settings.debounce_ms / 1000.0
    if problems:
        session.report_problems(problems)
    client = (params.client_info.name if params.client_info else "").lower()
    # VS Code and its forks (code-server, VSCodium, Cursor) draw `$(icon)` in lens titles
    session.verifier.codicons = any(word in client for word in ("code", "cursor", "vscodium"))
    td = params.capabilities.text_document
    if td is not None and td.diagnostic is not None:
        session.pull = True


async def initialized(session: Session, params: types.InitializedParams) -> None:
    """The client is ready for requests from the server: the workspace scan, when on, starts."""
    await workspace.scan(session)


def shutdown(session: Session, params: None) -> None:
    session.cleanup()
    # pygls then cancels the other pending requests while iterating the dict their
    # callbacks remove themselves from ("dictionary changed size"): cancel them first.
    session.client.cancel_other_requests()


def exit_(session: Session, params: None) -> None:
    session.cleanup()
