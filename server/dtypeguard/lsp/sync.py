"""Document synchronisation: `textDocument/did*` and `notebookDocument/did*`.

pygls applies each change to its copy of the document (`workspace`) before calling these
handlers; here the change reaches `Documents`, which debounces and analyses it (open: at once;
change: after the debounce; close: dropped, its diagnostics and verify results forgotten). An
edit also drops the verify diagnostics of that document: a runtime error's line means nothing
after an edit.

Notebooks (`notebookDocument/*`, Python cells of any notebook type) are analysed as one
document under the notebook's URI, the script of their code cells in order; `notebooks.py`
translates between cells and that script, so every feature works in cells too.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from dtypeguard.engine.parse import lines_with_ends
from dtypeguard.lsp import diagnostics, verify, workspace
from dtypeguard.lsp.notebooks import NotebookState
from dtypeguard.lsp.session import Session


# ---------------------------------------------------------------------------- pygls documents
class SyncedDocument(TextDocument):
    """pygls splits a document into lines with `str.splitlines`, which also breaks at form feed,
    U+2028, U+0085 and other characters that are not line ends for an LSP client (only "\\r\\n",
    "\\r" and "\\n" are): an incremental edit below such a character was applied on the wrong
    line, and a fix computed from that text would have corrupted the user's file."""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(lines_with_ends(self.source))


class SyncedWorkspace(Workspace):
    """A pygls workspace whose documents are `SyncedDocument`s (`lifecycle.initialize` puts it
    in place of the one pygls creates)."""

    def _create_text_document(
        self, doc_uri: str, source: str | None = None, version: int | None = None, language_id: str | None = None
    ) -> TextDocument:
        return SyncedDocument(
            doc_uri, source=source, version=version, language_id=language_id,
            sync_kind=self._sync_kind, position_codec=self._position_codec,
        )


# ---------------------------------------------------------------------------- text documents
def did_open(session: Session, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    session.documents.open(doc.uri, doc.version, session.path_of(doc.uri))


def did_change(session: Session, params: types.DidChangeTextDocumentParams) -> None:
    doc = params.text_document
    had_verify = session.verifier.has_results(doc.uri) and not session.verifier.stale_since(doc.uri)
    state = session.documents.change(doc.uri, doc.version)
    if state is None:
        session.log(f"dtypeguard: change for a document that is not open: {doc.uri}", types.MessageType.Warning)
        return
    if had_verify:  # the first edit after a run: its results now describe an earlier version
        session.verifier.mark_stale(doc.uri)
        verify.notify_stale(session, doc.uri)


async def did_close(session: Session, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if session.documents.close(uri) is not None:
        session.verifier.forget(uri)
        diagnostics.clear(session, uri)
        diagnostics.republish_roots(session, uri, session.roots_in.pop(uri, frozenset()))  # its roots in other files go
        await workspace.closed(session, uri)  # with workspace diagnostics on: its file on disk


# ---------------------------------------------------------------------------- notebooks
def notebook_did_open(session: Session, params: types.DidOpenNotebookDocumentParams) -> None:
    nb = params.notebook_document
    session.notebooks.open[nb.uri] = NotebookState()
    session.documents.open(nb.uri, nb.version, session.path_of(nb.uri))


def notebook_did_change(session: Session, params: types.DidChangeNotebookDocumentParams) -> None:
    nb = params.notebook_document
    nb_state = session.notebooks.open.get(nb.uri)
    if nb_state is None:
        session.log(f"dtypeguard: change for a notebook that is not open: {nb.uri}", types.MessageType.Warning)
        return
    nb_state.verify.clear()  # a runtime error's line means nothing after an edit
    had_verify = session.verifier.has_results(nb.uri) and not session.verifier.stale_since(nb.uri)
    session.documents.change(nb.uri, nb.version)
    if had_verify:
        session.verifier.mark_stale(nb.uri)
        verify.notify_stale(session, nb.uri)


def notebook_did_close(session: Session, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    nb_state = session.notebooks.open.pop(uri, None)
    if session.documents.close(uri) is not None:
        session.verifier.forget(uri)
    if nb_state is not None:
        diagnostics.clear_cells(session, nb_state.published)
