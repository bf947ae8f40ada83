"""Notebooks over the real LSP (stdio, pytest-lsp): notebookDocument sync, diagnostics per cell
URI with cell-relative ranges, hovers (execution order), quick fixes that edit the right
cells, incremental re-analysis on cell edits, the verify lens on the optimizer's cell, and a
real verify run whose error lands on its cell."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.support import apply_text_edits, record, start

IMPORTS = "import torch\nfrom torch import nn"
MODEL = "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))"
DEFAULT = "torch.set_default_dtype(torch.float64)"
DATA = "x = torch.randn(16, 4)\ny = torch.randn(16, 1)"
STEP = "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nloss = ((model(x) - y) ** 2).mean()\nloss.backward()\nopt.step()"
CELLS = ["# Training\nA markdown cell.", IMPORTS, MODEL, DEFAULT, DATA, STEP]  # cell 0 is markdown


class Notebook:
    """The client's side of one notebook: cell texts, versions, URIs."""

    def __init__(self, client: LanguageClient, path: Path, cells: list[str], orders: list[int | None] | None = None) -> None:
        self.client = client
        self.path = path
        self.uri = path.resolve().as_uri()
        self.version = 1
        self.cells = list(cells)
        self.uris = [f"vscode-notebook-cell:{path.resolve()}#C{i}" for i in range(len(cells))]
        self.versions = [1] * len(cells)
        self.orders = orders or [None] * len(cells)

    def kind(self, i: int) -> types.NotebookCellKind:
        return types.NotebookCellKind.Markup if i == 0 else types.NotebookCellKind.Code

    def cell(self, i: int) -> types.NotebookCell:
        order = self.orders[i]
        summary = types.ExecutionSummary(execution_order=order, success=True) if order is not None else None
        return types.NotebookCell(kind=self.kind(i), document=self.uris[i], execution_summary=summary)

    def item(self, i: int) -> types.TextDocumentItem:
        language = "markdown" if i == 0 else "python"
        return types.TextDocumentItem(uri=self.uris[i], language_id=language, version=self.versions[i], text=self.cells[i])

    def open(self) -> None:
        self.client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=self.uri, notebook_type="jupyter-notebook", version=self.version,
                cells=[self.cell(i) for i in range(len(self.cells))],
            ),
            cell_text_documents=[self.item(i) for i in range(len(self.cells))],
        ))

    def edit_cell(self, i: int, text: str) -> int:
        """Replace cell i's text (a full-text content change), as an editor does after a fix."""
        self.version += 1
        self.versions[i] += 1
        self.cells[i] = text
        self.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=self.uri, version=self.version),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
                types.NotebookDocumentCellContentChanges(
                    document=types.VersionedTextDocumentIdentifier(uri=self.uris[i], version=self.versions[i]),
                    changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
                )
            ])),
        ))
        return self.version

    def delete_cell(self, i: int) -> None:
        self.version += 1
        uri = self.uris.pop(i)
        self.cells.pop(i)
        self.versions.pop(i)
        self.orders.pop(i)
        self.client.notebook_document_did_change(types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=self.uri, version=self.version),
            change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
                structure=types.NotebookDocumentCellChangeStructure(
                    array=types.NotebookCellArrayChange(start=i, delete_count=1, cells=[]),
                    did_close=[types.TextDocumentIdentifier(uri=uri)],
                )
            )),
        ))

    def close(self) -> None:
        self.client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=self.uri),
            cell_text_documents=[types.TextDocumentIdentifier(uri=u) for u in self.uris],
        ))


async def published(client: LanguageClient, uri: str, pred: Any = lambda d: True, timeout: float = 20.0) -> list[types.Diagnostic]:
    """The newest diagnostics published for `uri` once they satisfy `pred`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sent = record(client).published.get(uri, [])
        if sent and pred(sent[-1].diagnostics):
            return list(sent[-1].diagnostics)
        await asyncio.sleep(0.02)
    last = record(client).published.get(uri, [])
    raise AssertionError(f"no matching diagnostics for {uri} within {timeout} s; last: {last[-1].diagnostics if last else None}")


def codes(diags: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diags if d.source == "dtypeguard")


async def test_server_declares_notebook_sync(client: LanguageClient) -> None:
    result = await start(client)
    sync = result.capabilities.notebook_document_sync
    assert isinstance(sync, types.NotebookDocumentSyncOptions)
    selector = sync.notebook_selector[0]
    assert [c.language for c in selector.cells or []] == ["python"]


async def test_cross_cell_hazard_is_reported_in_the_right_cells(client: LanguageClient, tmp_path: Path) -> None:
    await start(client)
    nb = Notebook(client, tmp_path / "train.ipynb", CELLS)
    nb.open()
    dg001 = await published(client, nb.uris[3], lambda d: "DG001" in codes(d))
    assert codes(dg001) == ["DG001"]
    diag = dg001[0]
    assert (diag.range.start.line, diag.range.start.character) == (0, 0)  # cell-relative
    assert diag.range.end == types.Position(0, len(DEFAULT))
    assert "line 1 of code cell 2" in diag.message  # the model's cell, counted among code cells
    assert diag.related_information and diag.related_information[0].location.uri == nb.uris[2]
    assert diag.related_information[0].location.range.start.line == 0
    dg004 = await published(client, nb.uris[4], lambda d: bool(d))
    assert codes(dg004) == ["DG004"] and dg004[0].range.start.line == 0
    for i in (1, 2, 5):
        assert codes(await published(client, nb.uris[i])) == []
    assert nb.uris[0] not in record(client).published  # markdown: nothing
    assert nb.uri not in record(client).published  # never the notebook's own URI


async def test_hover_in_a_cell_explains_and_notes_the_execution_order(client: LanguageClient, tmp_path: Path) -> None:
    await start(client)
    # the set_default_dtype cell ran first ([1]), before the model cell ([2]) above it
    nb = Notebook(client, tmp_path / "order.ipynb", CELLS, orders=[None, 3, 4, 1, 5, 6])
    nb.open()
    await published(client, nb.uris[3], lambda d: bool(d))
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uris[3]), position=types.Position(0, 8)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    value = hover.contents.value
    assert "set_default_dtype" in value and "DG001" in value
    assert "Execution order" in value and "[1]" in value and "kernel's state may differ" in value
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uris[5]), position=types.Position(1, 0)))
    assert hover is None or "Execution order" not in hover.contents.value  # type: ignore[union-attr]


@pytest.mark.parametrize("resolve", [True, False], ids=["resolved", "eager"])
async def test_quick_fix_moves_the_call_into_the_imports_cell_and_the_squiggle_goes(client: LanguageClient, tmp_path: Path, resolve: bool) -> None:
    await start(client, resolve=resolve)
    nb = Notebook(client, tmp_path / "fix.ipynb", CELLS)
    nb.open()
    diags = await published(client, nb.uris[3], lambda d: "DG001" in codes(d))
    result = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uris[3]), range=diags[0].range,
        context=types.CodeActionContext(diagnostics=diags, only=[types.CodeActionKind.QuickFix]),
    ))
    fixes = [a for a in result or [] if isinstance(a, types.CodeAction) and a.is_preferred]
    assert len(fixes) == 1 and "Move this call" in fixes[0].title
    assert (fixes[0].edit is None) == resolve
    action = fixes[0] if fixes[0].edit is not None else await client.code_action_resolve_async(fixes[0])
    assert action.edit is not None and action.edit.document_changes
    edited: dict[str, list[types.TextEdit]] = {}
    for change in action.edit.document_changes:
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.version == 1
        edited[change.text_document.uri] = [e for e in change.edits if isinstance(e, types.TextEdit)]
    assert set(edited) == {nb.uris[1], nb.uris[3]}  # only the two cells it touches
    new_imports = apply_text_edits(nb.cells[1], edited[nb.uris[1]])
    new_default = apply_text_edits(nb.cells[3], edited[nb.uris[3]])
    assert DEFAULT in new_imports and new_imports.startswith(IMPORTS)
    assert new_default.strip() == ""
    nb.edit_cell(1, new_imports)
    nb.edit_cell(3, new_default)
    for i in range(1, 6):
        assert codes(await published(client, nb.uris[i], lambda d: not codes(d))) == []


async def test_editing_a_cell_reanalyses_and_deleting_one_clears_it(client: LanguageClient, tmp_path: Path) -> None:
    await start(client)
    nb = Notebook(client, tmp_path / "edit.ipynb", CELLS)
    nb.open()
    await published(client, nb.uris[4], lambda d: "DG004" in codes(d))
    # make the data float32 in its own cell: DG004 goes, DG001 stays
    nb.edit_cell(4, "x = torch.randn(16, 4, dtype=torch.float32)\ny = torch.randn(16, 1, dtype=torch.float32)")
    assert codes(await published(client, nb.uris[4], lambda d: not codes(d))) == []
    assert codes(await published(client, nb.uris[3])) == ["DG001"]
    # a cell that does not parse gets its own DG000; the other cells keep their findings
    nb.edit_cell(2, "model = nn.Sequential(")
    broken = await published(client, nb.uris[2], lambda d: "DG000" in codes(d))
    assert broken[0].range.start.line == 0
    # delete the set_default_dtype cell: its diagnostics are cleared
    uri = nb.uris[3]
    nb.edit_cell(2, MODEL)
    await published(client, nb.uris[2], lambda d: not codes(d))
    nb.delete_cell(3)
    assert await published(client, uri, lambda d: not d) == []
    nb.close()
    for cell_uri in nb.uris[1:]:
        assert await published(client, cell_uri, lambda d: not d) == []


async def test_verify_lens_is_on_the_optimizer_cell_and_verify_maps_the_error(client: LanguageClient, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    await start(client, settings={"verifyTimeout": 90})
    nb = Notebook(client, tmp_path / "verify.ipynb", CELLS)
    nb.path.write_text("{}")  # verify runs the open cells; the file only has to exist
    nb.open()
    await published(client, nb.uris[5])
    lens_cells = []
    for i in range(1, 6):
        lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=nb.uris[i])))
        if lenses:
            lens_cells.append(i)
            assert [lens.range.start.line for lens in lenses] == [0, 0, 0]
            assert [list(lens.command.arguments or []) for lens in lenses if lens.command] == [
                [nb.uri, "cpu"], [nb.uri, "cuda"], [nb.uri, None, "through"],
            ]
    assert lens_cells == [5]
    listing = sorted(p.name for p in tmp_path.iterdir())
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="dtypeguard.verify", arguments=[nb.uri, "cpu"]))
    assert isinstance(answer, dict) and answer["status"] == "error", answer
    assert answer["rule"] == "DG004" and answer["line"] == 2 and answer["cell"] == 5
    assert "line 2 of cell 5" in answer["summary"]
    runtime = await published(client, nb.uris[5], lambda d: any(x.source == "dtypeguard.verify" for x in d))
    diag = next(d for d in runtime if d.source == "dtypeguard.verify")
    assert diag.range.start.line == 1 and "mat1 and mat2" in diag.message
    assert sorted(p.name for p in tmp_path.iterdir()) == listing  # nothing written beside the notebook


async def test_pull_clients_get_cells_pushed_until_they_pull_a_cell(client: LanguageClient, tmp_path: Path) -> None:
    """vscode-languageclient 9 pulls text documents but never notebook cells: cells are pushed
    to a pull client until it pulls one; then the pushed ones are taken back (no duplicates)."""
    await start(client, pull=True)
    nb = Notebook(client, tmp_path / "pull.ipynb", CELLS)
    nb.open()
    assert codes(await published(client, nb.uris[3], lambda d: bool(d))) == ["DG001"]
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uris[3])))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert codes(report.items) == ["DG001"] and report.items[0].range.start.line == 0
    again = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uris[3]), previous_result_id=report.result_id))
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    assert await published(client, nb.uris[3], lambda d: not d) == []  # the push is taken back
    pushes = sum(len(record(client).published.get(u, [])) for u in nb.uris)
    nb.edit_cell(4, "x = torch.randn(16, 4, dtype=torch.float32)\ny = torch.randn(16, 1, dtype=torch.float32)")
    report = await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=nb.uris[4])))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport) and codes(report.items) == []
    assert sum(len(record(client).published.get(u, [])) for u in nb.uris) == pushes  # pulled now, not pushed
