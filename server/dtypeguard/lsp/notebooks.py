"""Notebook documents in the language server: a notebook is analysed as one document.

The LSP notebook protocol (`notebookDocument/didOpen|didChange|didClose`) gives the server a
notebook and its cells as text documents with their own URIs. Here a notebook becomes one
entry of `Documents` under the notebook's URI whose text is the script of its code cells
joined in order (`dtypeguard.notebook.build_script`), so it gets the same debounced,
incremental analysis as a file (editing one cell re-parses only that cell's chunk). What
comes back is translated at this edge only: findings -> diagnostics of each cell URI with
cell-relative ranges, cell positions -> script positions for hovers, code actions and inlay
hints, and edits of the script -> edits of the cells that change. No analysis logic here.

Cells are named "code cell N" (N counts the code cells the client sent, from 1): clients
usually send only the Python cells of a notebook, so a count of all cells could not match
what the user sees.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

import attrs
from lsprotocol import types
from pygls.workspace import Workspace

from dtypeguard.engine.parse import lines_with_ends
from dtypeguard.findings import Span
from dtypeguard.lsp import convert
from dtypeguard.notebook import (
    CellFinding,
    NotebookError,
    Script,
    build_script,
    execution_order_notes,
    verify_script,
)

VIEWS_KEPT = 8


@dataclass
class NotebookView:
    """One snapshot of a notebook: its script and which cell URI each cell index is."""

    script: Script
    uris: dict[int, str]  # cell index -> cell URI (code cells in the script)
    order_notes: dict[int, str] = field(default_factory=dict)

    def index_of(self, cell_uri: str) -> int | None:
        return next((i for i, u in self.uris.items() if u == cell_uri), None)

    def cell_lines(self, cell: int) -> convert.Lines:
        return convert.Lines(self.script.sources.get(cell, ""))

    def to_script(self, cell: int, span: Span) -> Span | None:
        """A cell span -> the script span (clamped into the cell)."""
        region = self.script.region(cell)
        if region is None or region.lines == 0:
            return None
        line = min(max(span.line, 1), region.lines)
        end_line = min(max(span.end_line, line), region.lines)
        return Span(region.start + line - 1, span.col, region.start + end_line - 1, span.end_col)


@dataclass
class NotebookState:
    views: OrderedDict[str, NotebookView] = field(default_factory=OrderedDict)  # script text -> view
    published: set[str] = field(default_factory=set)  # cell URIs last published to
    verify: dict[str, list[types.Diagnostic]] = field(default_factory=dict)  # cell URI -> verify diagnostics


class Notebooks:
    """The open notebooks (event loop only)."""

    def __init__(self) -> None:
        self.open: dict[str, NotebookState] = {}

    def is_notebook(self, uri: str) -> bool:
        return uri in self.open

    @staticmethod
    def notebook_of_cell(workspace: Workspace, cell_uri: str) -> str | None:
        notebook = workspace.get_notebook_document(cell_uri=cell_uri)
        return notebook.uri if notebook is not None else None

    def script_text(self, workspace: Workspace, uri: str) -> str:
        """The script of the notebook's current cells (what `Documents` analyses)."""
        view = self.build(workspace, uri)
        state = self.open.setdefault(uri, NotebookState())
        state.views[view.script.text] = view
        state.views.move_to_end(view.script.text)
        while len(state.views) > VIEWS_KEPT:
            state.views.popitem(last=False)
        return view.script.text

    def build(self, workspace: Workspace, uri: str, for_verify: str | None = None) -> NotebookView:
        notebook = workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            raise KeyError(uri)
        cells: list[tuple[int, str]] = []
        uris: dict[int, str] = {}
        names: dict[int, str] = {}
        orders: list[tuple[int, int | None]] = []
        for index, cell in enumerate(notebook.cells):
            if cell.kind != types.NotebookCellKind.Code:
                continue
            doc = workspace.get_text_document(cell.document)
            if doc.language_id not in (None, "python"):
                continue
            cells.append((index, doc.source))
            uris[index] = cell.document
            names[index] = f"code cell {len(cells)}"
            summary = cell.execution_summary
            orders.append((index, summary.execution_order if summary is not None else None))
        script = verify_script(cells, for_verify) if for_verify is not None else build_script(cells, names=names)
        script.names = names
        return NotebookView(script, uris, execution_order_notes(orders, names))

    def view(self, uri: str, text: str) -> NotebookView | None:
        state = self.open.get(uri)
        return state.views.get(text) if state is not None else None

    # ---------------------------------------------------------------- diagnostics
    def diagnostics(self, view: NotebookView, findings: Sequence[CellFinding], encoding: str) -> dict[str, list[types.Diagnostic]]:
        out: dict[str, list[types.Diagnostic]] = {u: [] for u in view.uris.values()}
        for cf in findings:
            uri = view.uris.get(cf.cell)
            if uri is None:
                continue
            out[uri].append(self.diagnostic(view, cf, encoding))
        return out

    def diagnostic(self, view: NotebookView, cf: CellFinding, encoding: str) -> types.Diagnostic:
        uri = view.uris[cf.cell]
        diag = convert.diagnostic(cf.finding, view.cell_lines(cf.cell), uri, encoding)
        related: list[types.DiagnosticRelatedInformation] = []
        for rel, cell in zip(cf.finding.related, cf.related_cells, strict=False):
            if cell is None or cell not in view.uris:
                continue
            related.append(types.DiagnosticRelatedInformation(
                location=types.Location(uri=view.uris[cell], range=convert.to_range(view.cell_lines(cell), rel.span, encoding)),
                message=rel.message,
            ))
        return attrs.evolve(diag, related_information=related or None)  # the converted one is shared: not changed

    # ---------------------------------------------------------------- edits
    def cell_edit(self, view: NotebookView, workspace: Workspace, edit: types.WorkspaceEdit, encoding: str, document_changes: bool) -> types.WorkspaceEdit | None:
        """An edit of the script -> the same change as edits of the cells it touches."""
        edits: list[types.TextEdit] = []
        for change in edit.document_changes or []:
            if isinstance(change, types.TextDocumentEdit):
                edits += [e for e in change.edits if isinstance(e, types.TextEdit)]
        for uri_edits in (edit.changes or {}).values():
            edits += list(uri_edits)
        new_script = apply_edits(view.script.text, edits, encoding)
        try:
            sources = view.script.split(new_script)
        except NotebookError:
            return None
        if not sources:
            return None
        doc_changes: list[types.TextDocumentEdit] = []
        changes: dict[str, list[types.TextEdit]] = {}
        for cell, source in sorted(sources.items()):
            uri = view.uris[cell]
            cell_edits = convert.diff_edits(view.script.sources[cell], source, encoding)
            if not cell_edits:
                continue
            if document_changes:
                version = workspace.get_text_document(uri).version
                doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
                doc_changes.append(types.TextDocumentEdit(text_document=doc, edits=list(cell_edits)))
            else:
                changes[uri] = list(cell_edits)
        if document_changes:
            return types.WorkspaceEdit(document_changes=list(doc_changes)) if doc_changes else None
        return types.WorkspaceEdit(changes=changes) if changes else None


def apply_edits(text: str, edits: Sequence[types.TextEdit], encoding: str) -> str:
    """LSP text edits (non-overlapping, against `text`) applied to `text`."""
    lines = convert.Lines(text)
    starts = [0]
    for line in lines_with_ends(text):
        starts.append(starts[-1] + len(line))

    def offset(pos: types.Position) -> int:
        if pos.line >= len(lines):
            return len(text)
        line, col = convert.from_position(lines, pos, encoding)
        return starts[line - 1] + col

    spans = sorted(((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


__all__ = ["NotebookState", "NotebookView", "Notebooks", "apply_edits"]
