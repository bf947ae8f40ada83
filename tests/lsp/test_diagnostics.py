"""Diagnostics over stdio: content, versions, syntax errors, edit storms, configuration."""

from __future__ import annotations

import asyncio
import time
import urllib.parse
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from dtypeguard.analysis import check_source
from dtypeguard.rules import BY_CODE
from tests.lsp.support import (
    FIXTURES,
    H06,
    change_doc,
    open_doc,
    record,
    start,
    wait_published,
)


def _key(diags: list[types.Diagnostic]) -> list[tuple[object, int, int, int, int]]:
    return sorted(
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)
        for d in diags
        if d.source == "dtypeguard"
    )


def _expected(text: str) -> list[tuple[object, int, int, int, int]]:
    return sorted(
        (f.code, f.span.line - 1, f.span.col, f.span.end_line - 1, f.span.end_col)
        for f in check_source(text).findings
    )


async def test_sample_diagnostics(client: LanguageClient) -> None:
    await start(client)
    uri, text = open_doc(client, H06)
    diags = await wait_published(client, uri, 1)
    assert _key(diags) == _expected(text)
    dg004 = next(d for d in diags if d.code == "DG004")
    assert dg004.range.start.line == 24  # `inputs = torch.from_numpy(X)  # expect: DG004`: the fix goes here
    assert dg004.source == "dtypeguard"
    assert dg004.severity == types.DiagnosticSeverity.Error
    # the code links the rule's reference shipped with this version: a file that exists
    assert dg004.code_description is not None and dg004.code_description.href.startswith("file:///")
    page = Path(urllib.parse.unquote(urllib.parse.urlparse(dg004.code_description.href).path))
    assert page.name == "DG004.md" and BY_CODE["DG004"].explanation in page.read_text(encoding="utf-8")
    assert "float64" in dg004.message
    related = dg004.related_information or []
    assert related, "the other end of the hazard is pointed at"
    assert any(r.location.range.start.line == 33 and r.message.startswith("fails here") for r in related)  # model(inputs)
    assert any(r.location.range.start.line == 21 for r in related)  # rng.uniform: where float64 comes from
    assert all(r.location.uri == uri for r in related)


async def test_close_clears(client: LanguageClient) -> None:
    await start(client)
    uri, _ = open_doc(client, H06)
    assert await wait_published(client, uri, 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    for _ in range(200):
        if record(client).published[uri][-1].diagnostics == []:
            break
        await asyncio.sleep(0.02)
    assert not record(client).published[uri][-1].diagnostics


async def test_unicode_columns_are_utf16(client: LanguageClient) -> None:
    await start(client)
    text = H06.read_text().replace("inputs = torch.from_numpy(X)", "𝔭 = '😀'; inputs = torch.from_numpy(X)")
    uri, _ = open_doc(client, FIXTURES / "unicode_h06.py", text)
    diags = await wait_published(client, uri, 1)
    dg004 = next(d for d in diags if d.code == "DG004")
    line = text.split("\n")[dg004.range.start.line]
    col = line.index("torch.from_numpy(X)")
    # two astral characters before the call: each is two UTF-16 code units
    assert dg004.range.start.character == col + 2


async def test_syntax_error_keeps_last_good_plus_dg000(client: LanguageClient) -> None:
    await start(client)
    uri, text = open_doc(client, H06)
    good = await wait_published(client, uri, 1)
    broken = text.replace("for epoch in range(10):", "for epoch in range(10)")
    change_doc(client, uri, 2, broken)
    during = await wait_published(client, uri, 2)
    assert [d for d in during if d.code != "DG000"] == good
    dg000 = [d for d in during if d.code == "DG000"]
    assert len(dg000) == 1 and dg000[0].range.start.line == text.split("\n").index("for epoch in range(10):")
    change_doc(client, uri, 3, text)
    after = await wait_published(client, uri, 3)
    assert after == good


async def test_non_python_text(client: LanguageClient) -> None:
    await start(client)
    uri, _ = open_doc(client, FIXTURES / "notes.md", "# Notes\n\n* a list { ] (\n\x00\x01 binary-ish \u2028 text\n")
    diags = await wait_published(client, uri, 1)
    assert [d.code for d in diags] == ["DG000"]


async def test_huge_file_is_refused_not_fatal(client: LanguageClient) -> None:
    await start(client)
    body = H06.read_text(encoding="utf-8")
    repeats = 50_000 // body.count("\n") + 1
    fifty_k = "\n".join([body] * repeats)
    uri, _ = open_doc(client, FIXTURES / "fifty_k.py", fifty_k)  # analysed: about 2 s here
    assert sum(d.code == "DG004" for d in await wait_published(client, uri, 1, timeout=90.0)) == repeats
    text = "import torch\n" + "x = torch.zeros(3)\n" * 120_000
    uri, _ = open_doc(client, FIXTURES / "huge.py", text)
    diags = await wait_published(client, uri, 1)
    assert [d.code for d in diags] == ["DG000"]
    assert "not analysed" in diags[0].message
    small_uri, _ = open_doc(client, H06)  # the server still serves other documents
    assert any(d.code == "DG004" for d in await wait_published(client, small_uri, 1))


async def test_edit_storm_final_diagnostics_match_final_text(client: LanguageClient) -> None:
    await start(client, settings={"debounceMs": 150})
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    addition = "\nbatch = torch.from_numpy(X)\nout = model(batch)\nz = (1 +\n"
    version = 1
    current = text
    started = time.monotonic()
    for _round in range(3):  # type it, then delete it, then type it again: 3 x ~60 edits x 2
        for char in addition:
            version += 1
            lines = current.split("\n")
            pos = types.Position(len(lines) - 1, len(lines[-1]))
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangePartial(range=types.Range(pos, pos), text=char)],
                )
            )
            current += char
        for _ in addition:
            version += 1
            lines = current.split("\n")
            end = types.Position(len(lines) - 1, len(lines[-1]))
            if lines[-1]:
                begin = types.Position(len(lines) - 1, len(lines[-1]) - 1)
            else:
                begin = types.Position(len(lines) - 2, len(lines[-2]))
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangePartial(range=types.Range(begin, end), text="")],
                )
            )
            current = current[:-1]
        if _round == 0:
            await asyncio.sleep(0)  # let a few go through
    for char in addition.replace("z = (1 +\n", "z = 1\n"):
        version += 1
        lines = current.split("\n")
        pos = types.Position(len(lines) - 1, len(lines[-1]))
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(range=types.Range(pos, pos), text=char)],
            )
        )
        current += char
    assert version > 300
    sent_in = time.monotonic() - started
    final = await wait_published(client, uri, version, timeout=30)
    assert _key(final) == _expected(current)
    assert sum(1 for d in final if d.code == "DG004") == 2  # the new forward call is a hazard too
    versions = [p.version or 0 for p in record(client).published[uri]]
    assert versions == sorted(versions), "never an older version after a newer one"
    assert len(versions) < 40, f"{len(versions)} publishes for {version} edits sent in {sent_in:.2f} s"
    # the server's document is the same text we have (incremental sync applied correctly)
    hover_probe = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(len(current.split("\n")) - 2, 0),
        )
    )
    del hover_probe  # any answer (or None) is fine: it must not be an error


async def test_configuration_change_republishes(client: LanguageClient) -> None:
    await start(client)
    uri, _ = open_doc(client, H06)
    first = await wait_published(client, uri, 1)
    assert any(d.code == "DG004" for d in first)
    count = len(record(client).published[uri])
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"dtypeguard": {"ignore": ["DG004"], "severityOverrides": {"DG008": "hint"}}}
        )
    )
    for _ in range(500):
        if len(record(client).published[uri]) > count:
            break
        await asyncio.sleep(0.02)
    after = record(client).published[uri][-1].diagnostics
    assert not any(d.code == "DG004" for d in after)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"dtypeguard": {"ignore": [], "severityOverrides": {"DG004": "warning"}}})
    )
    count = len(record(client).published[uri])
    for _ in range(500):
        if len(record(client).published[uri]) > count:
            break
        await asyncio.sleep(0.02)
    again = record(client).published[uri][-1].diagnostics
    assert [d.severity for d in again if d.code == "DG004"] == [types.DiagnosticSeverity.Warning]


async def test_initialization_options_and_pyproject(client: LanguageClient) -> None:
    await start(client, settings={"select": ["DG004", "DG008"]})
    uri, _ = open_doc(client, FIXTURES / "pyproj" / "train.py", H06.read_text())
    in_pyproj = await wait_published(client, uri, 1)
    assert not any(d.code == "DG004" for d in in_pyproj)  # [tool.dtypeguard] ignore = ["DG004"]
    uri2, _ = open_doc(client, FIXTURES / "elsewhere.py", H06.read_text())
    assert {d.code for d in await wait_published(client, uri2, 1)} <= {"DG004", "DG008"}


async def test_configuration_problems_are_reported_once(client: LanguageClient) -> None:
    await start(client, settings={"severityOverrides": {"DG004": "loud"}})
    uri, _ = open_doc(client, FIXTURES / "badproj" / "train.py", H06.read_text())
    diags = await wait_published(client, uri, 1)
    assert any(d.code == "DG004" for d in diags), "analysis goes on with the defaults"
    change_doc(client, uri, 2, H06.read_text() + "\n")
    await wait_published(client, uri, 2)
    logs = [m.message for m in client.log_messages]
    assert any("select" in m for m in logs) and any("colour" in m for m in logs)
    assert any("loud" in m or "severityOverrides" in m for m in logs)
    shown = [m for m in client.messages if "configuration" in m.message]
    assert 1 <= len(shown) <= 2  # init settings problem, then pyproject problems: once each


async def test_pull_diagnostics(client: LanguageClient) -> None:
    result = await start(client, pull=True)
    assert result.capabilities.diagnostic_provider is not None
    uri, text = open_doc(client, H06)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert _key(list(report.items)) == _expected(text)
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=report.result_id)
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    await asyncio.sleep(0.3)
    assert uri not in record(client).published, "pull clients get no pushed duplicates"


async def test_typing_keystroke_by_keystroke_publishes_what_check_source_finds(client: LanguageClient) -> None:
    """The server analyses each version incrementally (resuming where the last keystroke was);
    what it publishes for every version is still exactly what a fresh analysis finds. The
    typed line makes a new hazard (a float64 tensor into the model), passing through versions
    that do not parse."""
    await start(client)
    uri, text = open_doc(client, H06)
    await wait_published(client, uri, 1)
    anchor = text.index("preds = model(inputs)")
    typed = "extra = model(torch.zeros(4, 8, dtype=torch.float64))\n    "
    version, done = 1, 0
    while done < len(typed):
        piece = typed[done : done + 3]
        before = text[:anchor] + typed[:done] + text[anchor:]
        at = _pos(before, anchor + done)
        done += len(piece)
        version += 1
        current = text[:anchor] + typed[:done] + text[anchor:]
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text=piece)],
            )
        )
        diags = await wait_published(client, uri, version)
        if check_source(current).parsed:
            assert _key(diags) == _expected(current), f"version {version}: {typed[:done]!r}"
        else:
            assert any(d.code == "DG000" for d in diags)
    assert check_source(current).parsed
    assert ("DG004", 33, 18, 33, 56) in _key(diags)  # the new line is a hazard: at the float64 tensor it creates


def _pos(text: str, offset: int) -> types.Position:
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))
