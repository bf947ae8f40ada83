"""Diagnostics: what a document shows, pushed after each analysis or pulled by the client.

Diagnostics are pushed (`textDocument/publishDiagnostics`) unless the client declares pull
support (`textDocument.diagnostic`), in which case they are answered on
`textDocument/diagnostic` only (`text_document_diagnostic`, registered by `server.py` only for
such a client) and `workspace/diagnostic/refresh` is sent when they change for a reason other
than an edit (configuration, verify).

Syntax errors while typing: the last findings of text that parsed stay published, plus the one
DG000 finding for the parse error (positions of the kept findings refer to the last good text,
clamped into the current one). They are replaced as soon as the text parses again.

Roots in another file: a finding of an open document whose root is in another open document
(`CheckResult.elsewhere`: the `.double()` in `models.py` that `train.py` trips on) is shown in
that document too, at the root, where the fix goes. Each analysis republishes the documents it
(or its previous analysis) had roots in; closing the document takes its roots back.

Notebooks: a notebook's findings go to each cell URI, ranges relative to the cell. They are
pushed even to a pull client until it pulls a cell: vscode-languageclient 9 pulls text
documents but never notebook cells. The first pull of a cell takes back what was pushed.
"""

from __future__ import annotations

import os

from lsprotocol import types

from dtypeguard.findings import Finding, in_its_file
from dtypeguard.lsp import convert
from dtypeguard.lsp.documents import Analysis, DocState
from dtypeguard.lsp.session import Session

PULL_OPTIONS = types.DiagnosticOptions(identifier="dtypeguard", inter_file_dependencies=False, workspace_diagnostics=False)


# ---------------------------------------------------------------------------- what a document shows
def document_diagnostics(session: Session, state: DocState) -> list[types.Diagnostic]:
    """A text document's diagnostics: its findings (kept ones + DG000 while it does not parse)
    and the last verify run's."""
    enc = session.encoding
    latest = state.latest
    out: list[types.Diagnostic] = []
    if latest is not None:
        if latest.usable:
            out = [convert.diagnostic(f, latest.lines, state.uri, enc) for f in latest.result.findings]
            out += [convert.diagnostic(f, latest.lines, state.uri, enc) for f in roots_here(session, state, len(latest.lines))]
        else:
            good = state.good
            if good is not None:
                out = [convert.diagnostic(f, good.lines, state.uri, enc) for f in good.result.findings]
            out += [convert.diagnostic(f, latest.lines, state.uri, enc) for f in latest.result.findings]
    return out + state.verify_diagnostics


def roots_here(session: Session, state: DocState, lines: int) -> list[Finding]:
    """The findings of other open documents rooted in this one, as this document's (once per
    place and rule; none past its end, from an analysis of an older text of it)."""
    if state.path is None:
        return []
    me = os.path.realpath(state.path)
    out: list[Finding] = []
    seen: set[tuple[object, str]] = set()
    for other in list(session.documents.docs.values()):
        latest = other.latest if other.latest is not None and other.latest.usable else other.good  # (mid-typing: its last good one)
        if other is state or latest is None or not latest.usable:
            continue
        for f in latest.result.elsewhere:
            if os.path.realpath(f.span.file) != me or f.span.end_line > lines or (f.span, f.code) in seen:
                continue
            seen.add((f.span, f.code))
            out.append(in_its_file(f, state.path))
    return out


def republish_roots(session: Session, uri: str, before: frozenset[tuple[str, object, str, str]]) -> None:
    """After an analysis of `uri` (or its closing), the open documents whose roots from it
    changed show the change (a keystroke that changes none republishes nothing). While `uri`
    does not parse, its last roots stand, as its own findings do."""
    state = session.documents.docs.get(uri)
    latest = state.latest if state is not None else None
    if latest is not None and not latest.usable:
        return
    now = frozenset((os.path.realpath(f.span.file), f.span, f.code, f.message) for f in latest.result.elsewhere) if latest is not None else frozenset()
    if state is not None:
        session.roots_in[uri] = now
    touched = {key[0] for key in before ^ now}
    if not touched:
        return
    for other in list(session.documents.docs.values()):
        if other.uri != uri and other.path is not None and os.path.realpath(other.path) in touched:
            other.roots_epoch += 1
            publish(session, other)
    if session.pull:
        session.refresh(diagnostics=True)


def cell_diagnostics(session: Session, state: DocState) -> dict[str, list[types.Diagnostic]]:
    """A notebook's diagnostics per cell URI (every current cell, empty lists included)."""
    latest = state.latest
    chosen = latest if latest is not None and latest.usable else (state.good or latest)
    out: dict[str, list[types.Diagnostic]] = {}
    if chosen is not None:
        view = session.notebooks.view(state.uri, chosen.text)
        if view is not None:
            enabled = session.config_for(state.path).enabled("DG000", state.path)
            if not enabled:
                view.script.cell_problems = {}
            findings = view.script.cell_findings(chosen.result.findings)
            out = session.notebooks.diagnostics(view, findings, session.encoding)
    nb_state = session.notebooks.open.get(state.uri)
    if nb_state is not None:
        for uri, diags in nb_state.verify.items():
            if uri in out:
                out[uri] = out[uri] + diags
    return out


# ---------------------------------------------------------------------------- push
def publish(session: Session, state: DocState) -> None:
    """Push the document's diagnostics, unless the client pulls them."""
    if session.notebooks.is_notebook(state.uri):
        # pushed even to a pull client until it pulls a cell: vscode-languageclient 9
        # pulls text documents but never notebook cells
        if not (session.pull and session.cells_pulled):
            publish_cells(session, state)
        return
    if session.pull:
        return
    session.client.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=state.uri, diagnostics=document_diagnostics(session, state), version=state.version)
    )


def publish_cells(session: Session, state: DocState) -> None:
    """Push a notebook's diagnostics to each cell, and empty lists to cells that are gone."""
    by_cell = cell_diagnostics(session, state)
    nb_state = session.notebooks.open.get(state.uri)
    gone = (nb_state.published - set(by_cell)) if nb_state is not None else set()
    for uri, diags in by_cell.items():
        session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diags))
    for uri in gone:  # cells deleted, or no longer Python
        session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    if nb_state is not None:
        nb_state.published = set(by_cell)


def clear(session: Session, uri: str) -> None:
    """A closed text document: its diagnostics go (a pull client drops them itself)."""
    if not session.pull:
        session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def clear_cells(session: Session, cell_uris: set[str]) -> None:
    """Take back what was pushed to these cells (the notebook closed, or the client pulls now)."""
    for cell_uri in cell_uris:
        session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[]))


def on_analysis(session: Session, state: DocState, analysis: Analysis) -> None:
    """Every analysis `Documents` keeps ends here: an engine failure is logged once, the
    diagnostics are pushed, and a notebook pulled by cell asks for a refresh."""
    error = analysis.result.internal_error
    if error and error not in session.internal_errors_seen:
        session.internal_errors_seen.add(error)
        session.log(f"dtypeguard: analysis of {state.uri} failed inside the engine: {error}", types.MessageType.Error)
    publish(session, state)
    republish_roots(session, state.uri, session.roots_in.get(state.uri, frozenset()))
    if session.pull and session.cells_pulled and session.notebooks.is_notebook(state.uri):
        session.refresh(diagnostics=True)  # an edit in one cell changes what other cells show


# ---------------------------------------------------------------------------- pull
async def text_document_diagnostic(session: Session, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    """`textDocument/diagnostic`: the report of a document or a notebook cell, unchanged when
    neither the configuration, the text nor a verify run changed since `previous_result_id`."""
    uri = params.text_document.uri
    nb_uri = session.notebook_of_cell(uri)
    if nb_uri is not None:
        if not session.cells_pulled:  # from now on this client pulls cells: take back what was pushed
            session.cells_pulled = True
            for nb_state in session.notebooks.open.values():
                clear_cells(session, nb_state.published)
                nb_state.published = set()
        analysis = await session.analysis(nb_uri)
        nb_doc = session.state(nb_uri)
        result_id = f"{session.documents.generation}.{analysis.version}.{nb_doc.verify_epoch}"
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=cell_diagnostics(session, nb_doc).get(uri, []), result_id=result_id)
    if uri not in session.documents.docs:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    analysis = await session.analysis(uri)
    state = session.state(uri)
    result_id = f"{session.documents.generation}.{analysis.version}.{state.verify_epoch}.{state.roots_epoch}"
    if params.previous_result_id == result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return types.RelatedFullDocumentDiagnosticReport(items=document_diagnostics(session, state), result_id=result_id)
