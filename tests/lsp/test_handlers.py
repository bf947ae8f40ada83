"""The LSP handlers called directly: a `Session`, lsprotocol params, no client and no stdio.

Each handler is a top-level function taking the session; here the session's `Client` is a
recorder over a real pygls `Workspace` (filled the way pygls fills it before calling a
handler), so a test reads what a handler answers and what it sent, in-process. The same
handlers over stdio are tested in test_features.py, test_diagnostics.py and the rest.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.workspace import Workspace

from dtypeguard.analysis import check_source
from dtypeguard.config import load_config
from dtypeguard.lsp import (
    actions,
    configuration,
    convert,
    diagnostics,
    fixverify,
    hover,
    inlay,
    lens,
    lifecycle,
    sync,
    verify,
    workspace,
)
from dtypeguard.lsp.session import Session
from dtypeguard.lsp.verifier import FIX_VERIFY_COMMAND, VERIFY_COMMAND, Verifier
from tests.lsp.support import H06, ROOT, apply_workspace_edit, capabilities, fixes_or_skip, whole


class RecordingClient:
    """What a `Session` asks of the client, answered in-process and recorded."""

    def __init__(self, caps: types.ClientCapabilities, root: Path = ROOT) -> None:
        self.client_capabilities = caps
        self.workspace = Workspace(root.as_uri(), types.TextDocumentSyncKind.Incremental)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.logs: list[types.LogMessageParams] = []
        self.shown: list[types.ShowMessageParams] = []
        self.refreshed: list[str] = []
        self.applied: list[types.ApplyWorkspaceEditParams] = []
        self.notified: list[tuple[str, Any]] = []

    @property
    def work_done_progress(self) -> Any:
        raise AssertionError("no progress: the capabilities do not offer it")

    def text_document_publish_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        self.published.append(params)

    def window_log_message(self, params: types.LogMessageParams) -> None:
        self.logs.append(params)

    def window_show_message(self, params: types.ShowMessageParams) -> None:
        self.shown.append(params)

    async def window_show_message_request_async(self, params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        self.shown.append(types.ShowMessageParams(type=params.type, message=params.message))
        return None

    def workspace_diagnostic_refresh(self, params: None) -> None:
        self.refreshed.append("diagnostics")

    def workspace_code_lens_refresh(self, params: None) -> None:
        self.refreshed.append("lenses")

    def workspace_inlay_hint_refresh(self, params: None) -> None:
        self.refreshed.append("inlay")

    async def workspace_apply_edit_async(self, params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        self.applied.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    async def workspace_configuration_async(self, params: types.ConfigurationParams) -> list[Any]:
        return [None for _ in params.items]

    def notify(self, method: str, params: Any) -> None:
        self.notified.append((method, params))

    def cancel_other_requests(self) -> None:
        pass


class NoWarmVerifier(Verifier):
    """Records prewarms instead of starting a warm worker (which imports torch)."""

    def __init__(self) -> None:
        super().__init__()
        self.prewarmed: list[tuple[str | None, str]] = []

    def prewarm(self, python: str | None, device: str) -> None:
        self.prewarmed.append((python, device))


async def new_session(
    *, trusted: bool | None = None, settings: dict[str, Any] | None = None, root: Path = ROOT, **caps: bool
) -> Session:
    """A session as `build_server` makes it, after `initialize` (debounce 0: analyse at once)."""
    client = RecordingClient(capabilities(**caps), root)
    session = Session(client, diagnostics.on_analysis)
    session.verifier = NoWarmVerifier()
    options: dict[str, Any] = {"settings": {"debounceMs": 0, **(settings or {})}}
    if trusted is not None:
        options["workspaceTrusted"] = trusted
    lifecycle.initialize(
        session, types.InitializeParams(capabilities=client.client_capabilities, root_uri=root.as_uri(), initialization_options=options)
    )
    return session


@pytest.fixture
async def session() -> AsyncIterator[Session]:
    s = await new_session()
    yield s
    s.cleanup()


def client_of(session: Session) -> RecordingClient:
    assert isinstance(session.client, RecordingClient)
    return session.client


def open_text(session: Session, path: Path, text: str | None = None, version: int = 1) -> tuple[str, str]:
    """didOpen as pygls delivers it: the workspace has the document, then the handler runs."""
    text = path.read_text(encoding="utf-8") if text is None else text
    item = types.TextDocumentItem(uri=path.resolve().as_uri(), language_id="python", version=version, text=text)
    session.workspace.put_text_document(item)
    sync.did_open(session, types.DidOpenTextDocumentParams(text_document=item))
    return item.uri, text


def change_text(session: Session, uri: str, version: int, text: str) -> None:
    doc = types.VersionedTextDocumentIdentifier(uri=uri, version=version)
    change = types.TextDocumentContentChangeWholeDocument(text=text)
    session.workspace.update_text_document(doc, change)
    sync.did_change(session, types.DidChangeTextDocumentParams(text_document=doc, content_changes=[change]))


async def published(session: Session, uri: str, version: int, timeout: float = 20.0) -> list[types.Diagnostic]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for params in client_of(session).published:
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        await asyncio.sleep(0.01)
    raise AssertionError(f"nothing published for {uri} version {version}")


def _key(diags: list[types.Diagnostic]) -> list[tuple[object, int, int]]:
    return sorted((d.code, d.range.start.line, d.range.start.character) for d in diags)


def _expected(text: str) -> list[tuple[object, int, int]]:
    return sorted((f.code, f.span.line - 1, f.span.col) for f in check_source(text).findings)


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _position_of(text: str, needle: str) -> types.Position:
    lines = text.split("\n")
    line0 = next(i for i, line in enumerate(lines) if needle in line)
    return types.Position(line0, lines[line0].index(needle))


# ---------------------------------------------------------------------------- diagnostics
async def test_an_analysis_is_pushed_with_the_findings_of_check_source(session: Session) -> None:
    uri, text = open_text(session, H06)
    diags = await published(session, uri, 1)
    assert _key(diags) == _expected(text)
    assert all(d.source == "dtypeguard" for d in diags)
    # the same list the handler module computes for the document's state
    assert diagnostics.document_diagnostics(session, session.state(uri)) == diags


async def test_a_syntax_error_keeps_the_last_good_findings_and_adds_dg000(session: Session) -> None:
    uri, text = open_text(session, H06)
    good = await published(session, uri, 1)
    change_text(session, uri, 2, text + "\ndef broken(:\n")
    diags = await published(session, uri, 2)
    assert [d for d in diags if d.code != "DG000"] == good
    assert [d.code for d in diags if d.code == "DG000"] == ["DG000"]


async def test_pull_diagnostics_handler_and_its_result_ids() -> None:
    session = await new_session(pull=True)
    try:
        uri, text = open_text(session, H06)
        params = types.DocumentDiagnosticParams(text_document=_doc(uri))
        report = await diagnostics.text_document_diagnostic(session, params)
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        assert _key(report.items) == _expected(text)
        assert client_of(session).published == [], "a pull client gets nothing pushed"
        again = await diagnostics.text_document_diagnostic(
            session, types.DocumentDiagnosticParams(text_document=_doc(uri), previous_result_id=report.result_id)
        )
        assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
        assert again.result_id == report.result_id
        fixed = text.replace("torch.from_numpy(X)", "torch.from_numpy(X).float()")
        change_text(session, uri, 2, fixed)
        after = await diagnostics.text_document_diagnostic(
            session, types.DocumentDiagnosticParams(text_document=_doc(uri), previous_result_id=report.result_id)
        )
        assert isinstance(after, types.RelatedFullDocumentDiagnosticReport)
        assert after.result_id != report.result_id
        assert _key(after.items) == _expected(fixed)
        assert "DG004" not in {d.code for d in after.items}
        # a document that is not open: an empty report, not an error
        closed = await diagnostics.text_document_diagnostic(session, types.DocumentDiagnosticParams(text_document=_doc(ROOT.as_uri() + "/nope.py")))
        assert isinstance(closed, types.RelatedFullDocumentDiagnosticReport) and closed.items == []
    finally:
        session.cleanup()


async def test_close_clears_what_was_pushed(session: Session) -> None:
    uri, _ = open_text(session, H06)
    assert await published(session, uri, 1)
    await sync.did_close(session, types.DidCloseTextDocumentParams(text_document=_doc(uri)))
    last = client_of(session).published[-1]
    assert last.uri == uri and last.diagnostics == []
    with pytest.raises(JsonRpcInvalidParams, match="not open"):
        session.state(uri)


async def test_a_settings_change_reanalyses_with_the_new_selection(session: Session) -> None:
    uri, _ = open_text(session, H06)
    assert "DG004" in {d.code for d in await published(session, uri, 1)}
    before = len(client_of(session).published)
    await configuration.did_change_configuration(
        session, types.DidChangeConfigurationParams(settings={"dtypeguard": {"ignore": ["DG004"]}})
    )
    deadline = time.monotonic() + 20
    while len(client_of(session).published) == before and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert "DG004" not in {d.code for d in client_of(session).published[-1].diagnostics}
    assert "lenses" in client_of(session).refreshed


# ---------------------------------------------------------------------------- hover
async def test_hover_handler(session: Session) -> None:
    uri, text = open_text(session, H06)
    from dtypeguard.hover import hover_markdown

    at = _position_of(text, "model(inputs)")
    answer = await hover.hover(session, types.HoverParams(text_document=_doc(uri), position=at))
    assert answer is not None and isinstance(answer.contents, types.MarkupContent)
    assert answer.contents.kind == types.MarkupKind.Markdown
    expected = hover_markdown(check_source(text), at.line + 1, at.character)
    if expected:
        assert answer.contents.value.startswith(expected.strip())
    assert "**DG004**" in answer.contents.value
    blank = text.split("\n").index("")
    assert await hover.hover(session, types.HoverParams(text_document=_doc(uri), position=types.Position(blank, 0))) is None
    with pytest.raises(JsonRpcInvalidParams, match="outside the document"):
        await hover.hover(session, types.HoverParams(text_document=_doc(uri), position=types.Position(10_000, 0)))
    with pytest.raises(JsonRpcInvalidParams, match="not open"):
        await hover.hover(session, types.HoverParams(text_document=_doc(ROOT.as_uri() + "/nope.py"), position=types.Position(0, 0)))


# ---------------------------------------------------------------------------- code actions
async def test_code_action_handler_lazy_then_resolve(session: Session) -> None:
    fixes_or_skip()
    uri, text = open_text(session, H06)
    diags = await published(session, uri, 1)
    dg004 = next(d for d in diags if d.code == "DG004")
    found = await actions.code_action(
        session, types.CodeActionParams(text_document=_doc(uri), range=dg004.range, context=types.CodeActionContext(diagnostics=[dg004]))
    )
    quick = [a for a in found if a.kind == types.CodeActionKind.QuickFix]
    # "Fix and verify" is a command (it runs the code on request), the others resolve lazily
    fix_verify = [a for a in quick if a.command is not None and a.command.command == FIX_VERIFY_COMMAND]
    assert [a.title for a in fix_verify] == [actions.FIX_VERIFY_TITLE]
    assert fix_verify[0].command is not None and fix_verify[0].command.arguments == [uri]
    assert fix_verify[0].diagnostics == [dg004]
    quick = [a for a in quick if a not in fix_verify]
    assert quick and all(a.edit is None and isinstance(a.data, dict) for a in found if a not in fix_verify), "lazy: titles and data only"
    preferred = next(a for a in quick if a.is_preferred)
    resolved = await actions.code_action_resolve(session, preferred)
    assert resolved.edit is not None
    fixed = apply_workspace_edit(text, uri, resolved.edit)
    assert "DG004" not in {f.code for f in check_source(fixed).findings}
    assert "Ignore DG004 on this line" in [a.title for a in quick]
    assert {actions.FIX_ALL_KIND, actions.SETUP_KIND} <= {a.kind for a in found}


async def test_code_action_handler_with_edits_up_front() -> None:
    fixes = fixes_or_skip()
    session = await new_session(resolve=False, document_changes=False)
    try:
        uri, text = open_text(session, H06)
        found = await actions.code_action(
            session,
            types.CodeActionParams(
                text_document=_doc(uri), range=whole(text), context=types.CodeActionContext(diagnostics=[], only=[actions.FIX_ALL_KIND])
            ),
        )
        assert [a.title for a in found] == [actions.FIX_ALL_TITLE]
        edit = found[0].edit
        assert edit is not None and edit.changes is not None and edit.document_changes is None
        assert apply_workspace_edit(text, uri, edit) == fixes.fix_all(text, str(H06), load_config(H06)).text
    finally:
        session.cleanup()


async def test_fix_all_command_asks_the_client_to_apply(session: Session) -> None:
    fixes = fixes_or_skip()
    uri, text = open_text(session, H06)
    assert await actions.fix_all(session, uri) == {"applied": True}
    [applied] = client_of(session).applied
    assert applied.label == "dtypeguard: fix all"
    assert apply_workspace_edit(text, uri, applied.edit) == fixes.fix_all(text, str(H06), load_config(H06)).text
    with pytest.raises(JsonRpcInvalidParams):
        await actions.fix_all(session)


async def test_insert_setup_command_turns_the_cuda_default_trick_into_a_used_device(session: Session) -> None:
    """The blog's trick (samples/blog_mnist_trick.py): the command asks the client to apply the
    setup block where the legacy block stood, with the model moved to the new `device`."""
    fixes = fixes_or_skip()
    blog = ROOT / "samples" / "blog_mnist_trick.py"
    uri, text = open_text(session, blog)
    await published(session, uri, 1)
    assert await actions.insert_setup(session, uri) == {"applied": True}
    [applied] = client_of(session).applied
    fixed = apply_workspace_edit(text, uri, applied.edit)
    assert fixed == fixes.apply_edits(text, fixes.setup_block_edits(text))
    assert "torch.set_default_tensor_type(\"" not in fixed and ".to(device)\n" in fixed


# ---------------------------------------------------------------------------- inlay hints
async def test_inlay_hint_handler_is_off_until_the_setting_then_gives_the_engines_hints() -> None:
    from dtypeguard.hover import inlay_hints

    for on in (False, True):
        session = await new_session(settings={"inlayHints": on})
        try:
            uri, text = open_text(session, H06)
            await published(session, uri, 1)
            hints = await inlay.inlay_hint(session, types.InlayHintParams(text_document=_doc(uri), range=whole(text)))
            expected = inlay_hints(check_source(text), 1, len(text.split("\n"))) if on else []
            assert expected or not on
            assert [(h.position.line + 1, h.position.character, h.label) for h in hints] == [(e.line, e.col, e.label) for e in expected]
        finally:
            session.cleanup()


# ---------------------------------------------------------------------------- code lens
async def test_code_lens_handler(session: Session) -> None:
    uri, text = open_text(session, H06)
    lenses = await lens.code_lens(session, types.CodeLensParams(text_document=_doc(uri)))
    assert [lns.command.title for lns in lenses if lns.command] == ["Verify on CPU", "Verify on GPU", "Verify run-through", "Fix and verify"]
    assert [lns.command.arguments for lns in lenses if lns.command] == [[uri, "cpu"], [uri, "cuda"], [uri, None, "through"], [uri]]
    assert [lns.command.command if lns.command else None for lns in lenses] == [VERIFY_COMMAND] * 3 + [FIX_VERIFY_COMMAND]
    assert {lns.range.start.line for lns in lenses} == {_position_of(text, "torch.optim.Adam").line}
    verifier = session.verifier
    assert isinstance(verifier, NoWarmVerifier) and verifier.prewarmed == [(None, "cpu")]


async def test_fix_and_verify_refused_while_one_runs_and_when_untrusted(session: Session) -> None:
    """No run starts here: a second request while one is going gets a polite message; an
    untrusted workspace gets neither the action nor a run; a file with nothing to fix says so."""
    import threading

    uri, text = open_text(session, H06)
    await published(session, uri, 1)
    going = threading.Event()
    session.verifier.fixing = ("file:///elsewhere/train.py", going)
    answer = await fixverify.fix_and_verify(session, uri, "cpu")
    assert (answer["applied"], answer["reason"]) == (False, "busy")
    assert client_of(session).shown[-1].message == (
        "dtypeguard: Fix and verify is already running on train.py; wait for it to finish (or cancel it), then ask again.")
    assert session.verifier.fixing == ("file:///elsewhere/train.py", going) and not going.is_set()
    assert await fixverify.cancel_fix_and_verify(session, uri) == {"cancelled": False}
    assert await fixverify.cancel_fix_and_verify(session, "file:///elsewhere/train.py") == {"cancelled": True}
    assert going.is_set()
    session.verifier.fixing = None

    fixed = fixes_or_skip().fix_all(text, str(H06)).text
    uri2, _ = open_text(session, H06.with_name("h06_fixed_copy.py"), fixed)
    await published(session, uri2, 1)
    answer = await fixverify.fix_and_verify(session, uri2, "cpu")
    assert (answer["applied"], answer["reason"]) == (False, "nothing to fix")
    assert client_of(session).applied == []

    untrusted = await new_session(trusted=False)
    try:
        uri, _ = open_text(untrusted, H06)
        diags = await published(untrusted, uri, 1)
        dg004 = next(d for d in diags if d.code == "DG004")
        found = await actions.code_action(untrusted, types.CodeActionParams(
            text_document=_doc(uri), range=dg004.range, context=types.CodeActionContext(diagnostics=[dg004])))
        assert found and actions.FIX_VERIFY_TITLE not in [a.title for a in found]
        with pytest.raises(Exception, match="off until you trust this workspace"):
            await fixverify.fix_and_verify(untrusted, uri, "cpu")
    finally:
        untrusted.cleanup()


async def test_no_code_lens_in_an_untrusted_workspace() -> None:
    session = await new_session(trusted=False)
    try:
        uri, _ = open_text(session, H06)
        assert await lens.code_lens(session, types.CodeLensParams(text_document=_doc(uri))) == []
        verifier = session.verifier
        assert isinstance(verifier, NoWarmVerifier) and verifier.prewarmed == []
    finally:
        session.cleanup()


# ---------------------------------------------------------------------------- notebooks
NOTEBOOK_CELLS = [
    "import numpy as np\nimport torch\nfrom torch import nn\nX = np.random.rand(8, 4)\n",
    "model = nn.Linear(4, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n",
    "inputs = torch.from_numpy(X)\nloss = model(inputs).sum()\nloss.backward()\nopt.step()\n",
]


async def test_notebook_handlers_answer_per_cell(session: Session) -> None:
    nb = (ROOT / "handlers.ipynb").as_uri()
    cells = [f"vscode-notebook-cell:{nb}#c{i}" for i in range(len(NOTEBOOK_CELLS))]
    params = types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(
            uri=nb, notebook_type="jupyter-notebook", version=1,
            cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=u) for u in cells],
        ),
        cell_text_documents=[
            types.TextDocumentItem(uri=u, language_id="python", version=1, text=t) for u, t in zip(cells, NOTEBOOK_CELLS, strict=True)
        ],
    )
    session.workspace.put_notebook_document(params)
    sync.notebook_did_open(session, params)
    deadline = time.monotonic() + 20
    while {p.uri for p in client_of(session).published} != set(cells) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    by_cell = {p.uri: p.diagnostics for p in client_of(session).published}
    assert by_cell[cells[0]] == [] and by_cell[cells[1]] == []
    dg004 = next(d for d in by_cell[cells[2]] if d.code == "DG004")
    assert dg004.range.start.line == 0, "ranges are relative to the cell"
    # the lenses are on the cell that builds the optimizer, with the notebook's URI
    assert await lens.code_lens(session, types.CodeLensParams(text_document=_doc(cells[0]))) == []
    lenses = await lens.code_lens(session, types.CodeLensParams(text_document=_doc(cells[1])))
    assert lenses and all(lns.command and lns.command.arguments and lns.command.arguments[0] == nb for lns in lenses)
    answer = await hover.hover(session, types.HoverParams(text_document=_doc(cells[2]), position=types.Position(1, 8)))
    assert answer is not None and "DG004" in str(answer.contents)
    # an edit of one cell (the workspace updated as pygls does, then the handler) re-analyses the notebook
    seen = len(client_of(session).published)
    change = types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=nb, version=2),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(text_content=[
            types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=cells[2], version=2),
                changes=[types.TextDocumentContentChangeWholeDocument(text=NOTEBOOK_CELLS[2].replace("(X)", "(X).float()"))],
            )
        ])),
    )
    session.workspace.update_notebook_document(change)
    sync.notebook_did_change(session, change)
    deadline = time.monotonic() + 20
    while not any(p.uri == cells[2] for p in client_of(session).published[seen:]) and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    again = [p for p in client_of(session).published[seen:] if p.uri == cells[2]]
    assert again and again[-1].diagnostics == [], "the cast in cell 3 fixed its DG004"
    # a change for a notebook that is not open is logged, not raised
    sync.notebook_did_change(session, types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(uri=nb + "x", version=1),
        change=types.NotebookDocumentChangeEvent()))
    assert "not open" in client_of(session).logs[-1].message
    sync.notebook_did_close(
        session, types.DidCloseNotebookDocumentParams(notebook_document=types.NotebookDocumentIdentifier(uri=nb), cell_text_documents=[])
    )
    assert {p.uri for p in client_of(session).published[-len(cells):] if p.diagnostics == []} == set(cells)


# ---------------------------------------------------------------------------- life cycle
async def test_initialize_reads_settings_and_trust_and_shutdown_cleans_up() -> None:
    session = await new_session(trusted=False, settings={"debounceMs": 50, "verifyDevice": "cpu"}, pull=True)
    assert not session.trusted and session.pull
    assert session.settings.verify_device == "cpu" and session.documents.debounce_s == 0.05
    assert isinstance(session.workspace, sync.SyncedWorkspace)
    uri, _ = open_text(session, H06)
    lifecycle.shutdown(session, None)
    assert session.documents.docs == {} and session.verifier.closed
    with pytest.raises(JsonRpcInvalidParams, match="not open"):
        await hover.hover(session, types.HoverParams(text_document=_doc(uri), position=types.Position(0, 0)))


async def test_exit_cleans_up_even_after_shutdown_and_twice() -> None:
    session = await new_session()
    uri, _ = open_text(session, H06)
    await published(session, uri, 1)
    lifecycle.shutdown(session, None)
    lifecycle.exit_(session, None)
    lifecycle.exit_(session, None)
    assert session.documents.docs == {} and session.verifier.closed
    alone = await new_session()  # exit without shutdown (a client that only exits) cleans up too
    open_text(alone, H06)
    lifecycle.exit_(alone, None)
    assert alone.documents.docs == {} and alone.verifier.closed


# ---------------------------------------------------------------------------- workspace scan
async def test_initialized_scans_the_workspace_when_the_setting_is_on(tmp_path: Path) -> None:
    """`initialized` runs the scan: files on disk are published (not those in `.venv`, not the
    open document, whose buffer is the truth); turning the setting off takes them back."""
    hazard = tmp_path / "train.py"
    hazard.write_text(H06.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "clean.py").write_text("import torch\nx = torch.zeros(2)\n", encoding="utf-8")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "h.py").write_text(H06.read_text(encoding="utf-8"), encoding="utf-8")
    opened = tmp_path / "opened.py"
    opened.write_text(H06.read_text(encoding="utf-8"), encoding="utf-8")
    off = await new_session(root=tmp_path)
    try:
        await lifecycle.initialized(off, types.InitializedParams())
        assert client_of(off).published == [], "off by default"
    finally:
        off.cleanup()
    session = await new_session(root=tmp_path, settings={"workspaceDiagnostics": True})
    try:
        open_uri, _ = open_text(session, opened, "import torch\n")
        await published(session, open_uri, 1)
        await lifecycle.initialized(session, types.InitializedParams())
        by_uri = {p.uri: p.diagnostics for p in client_of(session).published if p.version is None}
        assert set(by_uri) == {hazard.as_uri(), (tmp_path / "clean.py").as_uri()}
        assert _key(by_uri[hazard.as_uri()]) == _expected(hazard.read_text(encoding="utf-8")) != []
        assert by_uri[(tmp_path / "clean.py").as_uri()] == []
        assert session.workspace_published == set(by_uri)
        seen = len(client_of(session).published)
        session.settings = session.settings.__class__(**{**vars(session.settings), "workspace_diagnostics": False})
        assert await workspace.scan(session) == 0
        taken_back = client_of(session).published[seen:]
        assert {p.uri for p in taken_back} == set(by_uri) and all(p.diagnostics == [] for p in taken_back)
        assert session.workspace_published == set()
    finally:
        session.cleanup()


# ---------------------------------------------------------------------------- verify
async def test_verify_command_runs_the_file_and_shows_the_result_everywhere() -> None:
    """The command handler itself (a real run, cold: the warm worker is off here): the answer,
    the verify diagnostic pushed with the document's findings, the status-bar notification, the
    message; an edit makes the result stale; bad arguments and an untrusted workspace are refused."""
    session = await new_session(progress=False)
    uri, text = open_text(session, H06)
    await published(session, uri, 1)
    with pytest.raises(JsonRpcInvalidParams, match="third argument"):
        await verify.verify(session, uri, "cpu", "sideways")
    answer = await verify.verify(session, uri, "cpu")
    assert (answer["status"], answer["uri"], answer["device"]) == ("error", uri, "cpu"), answer
    assert "mat1 and mat2" in answer["summary"]
    pushed = client_of(session).published[-1]
    assert pushed.uri == uri and any(d.source == convert.VERIFY_SOURCE for d in pushed.diagnostics), pushed
    method, payload = client_of(session).notified[-1]
    assert method == verify.VERIFY_RESULT_NOTIFICATION
    assert (payload["status"], payload["stale"], payload["line"]) == ("error", False, answer["line"])
    assert client_of(session).shown[-1].message.startswith("dtypeguard verify: ")
    change_text(session, uri, 2, text + "\n")
    method, payload = client_of(session).notified[-1]
    assert (method, payload["stale"]) == (verify.VERIFY_RESULT_NOTIFICATION, True)
    session.cleanup()
    untrusted = await new_session(trusted=False)
    try:
        uri2, _ = open_text(untrusted, H06)
        with pytest.raises(Exception, match="off until you trust this workspace"):
            await verify.verify(untrusted, uri2, "cpu")
    finally:
        untrusted.cleanup()


# ---------------------------------------------------------------------------- edits through didChange
def _position(text: str, offset: int) -> types.Position:
    """An offset as LSP counts it (UTF-16 code units in the line)."""
    before = text[:offset]
    line = before.count("\n")
    column = before[before.rfind("\n") + 1 :]
    return types.Position(line, len(column.encode("utf-16-le")) // 2)


def _parses(text: str) -> bool:
    try:
        compile(text, "<edit>", "exec", dont_inherit=True)
    except SyntaxError:
        return False
    return True


class _Typist:
    """Keystrokes into an open document as an editor sends them: one ranged didChange each,
    applied to the workspace first (as pygls does), then the handler."""

    def __init__(self, session: Session, uri: str, text: str) -> None:
        self.session, self.uri, self.text, self.version = session, uri, text, 1

    def edit(self, pos: int, cut: int, new: str) -> str:
        """Replace text[pos:cut] by `new`; returns what was replaced."""
        start, end, old = _position(self.text, pos), _position(self.text, cut), self.text[pos:cut]
        self.text = self.text[:pos] + new + self.text[cut:]
        self.version += 1
        doc = types.VersionedTextDocumentIdentifier(uri=self.uri, version=self.version)
        change = types.TextDocumentContentChangePartial(range=types.Range(start, end), text=new)
        self.session.workspace.update_text_document(doc, change)
        sync.did_change(self.session, types.DidChangeTextDocumentParams(text_document=doc, content_changes=[change]))
        return old


async def test_random_incremental_edits_through_did_change_publish_what_check_source_finds(session: Session) -> None:
    """The property the Analyzer-level tests check (tests/engine/test_incremental.py), through the
    handler path an editor drives: ranged didChange events applied by the workspace, the analysis
    thread, the publish. Keystrokes insert statements at a line's indentation, delete lines or
    type a character; one that breaks the syntax is mostly undone at once, as typing does. After
    each burst the diagnostics published for the last version are those of a fresh check of the
    same text, or the last good ones plus DG000 while it does not parse."""
    import random

    rng = random.Random(20261205)
    statements = ["x = torch.zeros(3)", "y = x.double()", "model.half()", "y = x.cuda()", "torch.set_default_dtype(torch.float64)", "pass"]
    compared = broken = 0
    for path in sorted((ROOT / "samples" / "hazards").glob("h*.py"))[:8]:
        typist = _Typist(session, *open_text(session, path))
        for _burst in range(4):
            for _key_press in range(4):
                text = typist.text
                starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n" and i + 1 < len(text)]
                at = rng.choice(starts)
                line = text[at:].split("\n", 1)[0]
                kind = rng.random()
                if kind < 0.5:
                    pos, cut, new = at, at, line[: len(line) - len(line.lstrip())] + rng.choice(statements) + "\n"
                elif kind < 0.75:
                    pos, cut, new = at, min(len(text), at + len(line) + 1), ""
                else:
                    pos = cut = at + rng.randint(0, len(line))
                    new = "("
                old = typist.edit(pos, cut, new)
                if rng.random() < 0.6 and not _parses(typist.text):
                    typist.edit(pos, pos + len(new), old)
            assert session.workspace.get_text_document(typist.uri).source == typist.text
            diags = await published(session, typist.uri, typist.version)
            if not _parses(typist.text):
                broken += 1
                assert any(d.code == "DG000" for d in diags), f"{path.name} version {typist.version}"
                continue
            compared += 1
            assert _key(diags) == _expected(typist.text), f"{path.name} version {typist.version}:\n{typist.text}"
        await sync.did_close(session, types.DidCloseTextDocumentParams(text_document=_doc(typist.uri)))
    assert compared >= 8 and broken >= 2, f"{compared} bursts compared, {broken} broken: the edits no longer exercise both"
