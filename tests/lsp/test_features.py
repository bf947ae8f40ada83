"""Hover, code actions (quick fixes, ignore, fix-all, setup block), code lens, trust, inlay hints."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from dtypeguard.analysis import check_source
from dtypeguard.config import load_config
from tests.lsp.support import (
    H06,
    SAMPLES,
    apply_workspace_edit,
    fixes_or_skip,
    open_doc,
    record,
    start,
    wait_published,
    whole,
)

H04 = SAMPLES / "hazards" / "h04_default_dtype_after_model.py"


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def _actions(
    client: LanguageClient, uri: str, rng: types.Range, diags: list[types.Diagnostic], only: list[str] | None = None
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(text_document=_doc(uri), range=rng, context=types.CodeActionContext(diagnostics=diags, only=only))
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


async def _edit_of(client: LanguageClient, action: types.CodeAction) -> types.WorkspaceEdit:
    if action.edit is None:
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None, f"{action.title!r} resolved without an edit"
    return action.edit


async def test_hover_content(client: LanguageClient) -> None:
    await start(client)
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    from dtypeguard.hover import hover_markdown

    result = check_source(text)
    lines = text.split("\n")
    line0 = next(i for i, line in enumerate(lines) if "preds = model(inputs)" in line)
    col = lines[line0].index("model(inputs)")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=types.Position(line0, col)))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value
    expected = hover_markdown(result, line0 + 1, col)
    if expected:
        assert value.startswith(expected.strip())
    assert "**DG004**" in value, "the explanation of the diagnostic under the cursor is appended"
    from dtypeguard.rules import BY_CODE

    assert BY_CODE["DG004"].explanation.split(".")[0] in value

    # a variable: whatever the engine says about it, exactly
    line0 = next(i for i, line in enumerate(lines) if line.startswith("inputs = "))
    hover = await client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=types.Position(line0, 1)))
    expected = hover_markdown(result, line0 + 1, 1)
    if expected is None:
        assert hover is None
    else:
        assert hover is not None and isinstance(hover.contents, types.MarkupContent)
        assert hover.contents.value == expected.strip()

    # nothing when the engine knows nothing (a blank line)
    blank = lines.index("")
    hover = await client.text_document_hover_async(types.HoverParams(text_document=_doc(uri), position=types.Position(blank, 0)))
    assert hover is None or hover_markdown(result, blank + 1, 0) is not None


async def test_quick_fixes_of_every_sample_apply(client: LanguageClient) -> None:
    fixes = fixes_or_skip()
    await start(client)
    checked = 0
    unsafe_seen = 0
    for path in sorted((SAMPLES / "hazards").glob("*.py")):
        uri, text = open_doc(client, path)
        diags = await wait_published(client, uri, 1)
        result = check_source(text, str(path), load_config(path))
        for finding in result.findings:
            if not finding.fixes:
                continue
            diag = next(
                d for d in diags
                if d.code == finding.code and d.range.start.line == finding.span.line - 1
            )
            actions = [a for a in await _actions(client, uri, diag.range, [diag]) if a.kind == types.CodeActionKind.QuickFix]
            for index, fix in enumerate(finding.fixes):
                matching = [a for a in actions if a.title.startswith(fix.title.replace("`", ""))]
                assert all("`" not in a.title for a in actions), "titles are plain text in a menu"
                assert matching, f"{path.name}: no action for {fix.title!r} in {[a.title for a in actions]}"
                action = matching[0]
                if fix.safe:
                    assert bool(action.is_preferred) == (index == min(i for i, f in enumerate(finding.fixes) if f.safe))
                else:
                    unsafe_seen += 1
                    assert "unsafe" in action.title and not action.is_preferred
                edits = fixes.edits_for_fix(text, fix)
                if edits is None:
                    continue
                edit = await _edit_of(client, action)
                assert apply_workspace_edit(text, uri, edit) == fixes.apply_edits(text, edits), f"{path.name}: {fix.title}"
                if edit.document_changes:
                    change = edit.document_changes[0]
                    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 1
                checked += 1
    assert checked >= 5
    assert unsafe_seen >= 1


async def test_h06_fix_removes_the_hazard_and_ignore_suppresses_it(client: LanguageClient) -> None:
    fixes_or_skip()
    await start(client)
    uri, text = open_doc(client, H06)
    diags = await wait_published(client, uri, 1)
    diag = next(d for d in diags if d.code == "DG004")
    actions = await _actions(client, uri, diag.range, [diag])
    titles = [a.title for a in actions]
    assert "Ignore DG004 on this line" in titles
    fix = next(a for a in actions if a.is_preferred)
    fixed = apply_workspace_edit(text, uri, await _edit_of(client, fix))
    assert "torch.from_numpy(X).float()" in fixed
    assert not [f for f in check_source(fixed).findings if f.code == "DG004"]
    ignore = next(a for a in actions if a.title == "Ignore DG004 on this line")
    ignored = apply_workspace_edit(text, uri, await _edit_of(client, ignore))
    assert "dtypeguard: ignore[DG004]" in ignored
    assert len(ignored.split("\n")) == len(text.split("\n"))
    assert not [f for f in check_source(ignored).findings if f.code == "DG004"]


async def test_fix_all_source_action_and_command(client: LanguageClient) -> None:
    fixes = fixes_or_skip()
    await start(client)
    path = SAMPLES / "hazards" / "h04_default_dtype_after_model.py"
    uri, text = open_doc(client, path)
    await wait_published(client, uri, 1)
    expected = fixes.fix_all(text, str(path), load_config(path)).text
    assert expected != text
    actions = await _actions(client, uri, whole(text), [], only=["source.fixAll"])
    assert [a.kind for a in actions] == ["source.fixAll.dtypeguard"]
    assert apply_workspace_edit(text, uri, await _edit_of(client, actions[0])) == expected
    # the command applies it through workspace/applyEdit
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="dtypeguard.fixAll", arguments=[uri]))
    assert answer is not None and answer["applied"] is True
    assert apply_workspace_edit(text, uri, record(client).applied[-1]) == expected


async def test_setup_block_source_action_and_command(client: LanguageClient) -> None:
    fixes = fixes_or_skip()
    await start(client)
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    edits = fixes.setup_block_edits(text)
    if edits is None:
        pytest.skip("the fixes module offers no setup block for this sample")
    expected = fixes.apply_edits(text, edits)
    actions = await _actions(client, uri, types.Range(types.Position(0, 0), types.Position(0, 0)), [], only=["source"])
    setup = [a for a in actions if a.kind == "source.dtypeguard.insertSetupBlock"]
    assert [a.title for a in setup] == ["Insert default dtype/device setup block"]
    assert apply_workspace_edit(text, uri, await _edit_of(client, setup[0])) == expected
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="dtypeguard.insertSetupBlock", arguments=[uri])
    )
    assert answer is not None and answer["applied"] is True
    assert apply_workspace_edit(text, uri, record(client).applied[-1]) == expected


async def test_eager_edits_without_resolve_support(client: LanguageClient) -> None:
    fixes = fixes_or_skip()
    await start(client, resolve=False, document_changes=False)
    uri, text = open_doc(client, H06)
    diags = await wait_published(client, uri, 1)
    diag = next(d for d in diags if d.code == "DG004")
    actions = await _actions(client, uri, diag.range, [diag])
    assert actions and all(a.edit is not None and a.edit.changes for a in actions)
    finding = next(f for f in check_source(text).findings if f.code == "DG004")
    expected = fixes.apply_edits(text, fixes.edits_for_fix(text, finding.fixes[0]))
    preferred = next(a for a in actions if a.is_preferred)
    assert preferred.edit is not None
    assert apply_workspace_edit(text, uri, preferred.edit) == expected


async def test_code_lens_above_optimizers(client: LanguageClient) -> None:
    await start(client)
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    line0 = next(i for i, line in enumerate(text.split("\n")) if "torch.optim.Adam" in line)
    assert lenses is not None
    assert [(lens.range.start.line, lens.command.title if lens.command else None) for lens in lenses] == [
        (line0, "Verify on CPU"), (line0, "Verify on GPU"), (line0, "Verify run-through"),
        (line0, "Fix and verify"),  # h06 has a safe fix
    ]
    assert [list(lens.command.arguments or []) for lens in lenses if lens.command] == [
        [uri, "cpu"], [uri, "cuda"], [uri, None, "through"], [uri],
    ]
    assert [lens.command.command if lens.command else None for lens in lenses] == ["dtypeguard.verify"] * 3 + ["dtypeguard.fixAndVerify"]


async def test_untrusted_workspace(client: LanguageClient) -> None:
    fixes_or_skip()
    await start(client, trusted=False)
    uri, _ = open_doc(client, H06)
    diags = await wait_published(client, uri, 1)
    assert any(d.code == "DG004" for d in diags), "analysis works either way"
    assert not await client.text_document_code_lens_async(types.CodeLensParams(text_document=_doc(uri)))
    with pytest.raises(JsonRpcException, match="trust"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="dtypeguard.verify", arguments=[uri, "cpu"])
        )
    diag = next(d for d in diags if d.code == "DG004")
    actions = await _actions(client, uri, diag.range, [diag])
    assert any(a.is_preferred for a in actions), "fixes work either way"


async def test_inlay_hints_off_by_default_then_on(client: LanguageClient) -> None:
    from dtypeguard.hover import inlay_hints

    await start(client)
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    params = types.InlayHintParams(text_document=_doc(uri), range=whole(text))
    assert not await client.text_document_inlay_hint_async(params)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"dtypeguard": {"inlayHints": True}}))
    await wait_published(client, uri, 1)
    expected = inlay_hints(check_source(text), 1, len(text.split("\n")))
    hints = await client.text_document_inlay_hint_async(params) or []
    assert [(h.position.line + 1, h.position.character, h.label) for h in hints] == [
        (e.line, e.col, e.label) for e in expected
    ]


def test_fixture_paths_exist() -> None:
    assert Path(H06).is_file()


async def test_a_file_with_old_mac_line_ends_gets_the_same_positions_and_fixes(client: LanguageClient) -> None:
    """Lines ending in a lone \\r: LSP clients count them as lines, and so does the server."""
    await start(client)
    lf = H06.read_text(encoding="utf-8")
    cr_path = H06.with_name("h06_as_old_mac_text.py")  # only a URI: the text is sent, not read
    uri_lf, _ = open_doc(client, H06, lf)
    uri_cr, cr = open_doc(client, cr_path, lf.replace("\n", "\r"))
    want = await wait_published(client, uri_lf, 1)
    got = await wait_published(client, uri_cr, 1)
    assert [(d.code, d.range) for d in got] == [(d.code, d.range) for d in want] and got
    dg004 = next(d for d in got if d.code == "DG004")
    actions = [a for a in await _actions(client, uri_cr, dg004.range, [dg004]) if a.kind == types.CodeActionKind.QuickFix]
    edit = await _edit_of(client, actions[0])
    fixed = apply_workspace_edit(cr, uri_cr, edit)
    assert "\n" not in fixed and fixed != cr
    assert "DG004" not in {f.code for f in check_source(fixed).findings}


async def test_setup_block_on_a_dg001_file_moves_its_own_call(client: LanguageClient) -> None:
    """The file sets the default to float64 too late: the setup block is that call moved to the
    top, not a float32 block that contradicts it (issue 13)."""
    await start(client)
    uri, text = open_doc(client, H04)
    await wait_published(client, uri, 1)
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="dtypeguard.insertSetupBlock", arguments=[uri])
    )
    assert answer is not None and answer["applied"] is True
    fixed = apply_workspace_edit(text, uri, record(client).applied[-1])
    assert "set_default_dtype(torch.float32)" not in fixed
    assert fixed.count("torch.set_default_dtype(torch.float64)") == 1
    assert not [f for f in check_source(fixed).findings if f.code == "DG001"]
