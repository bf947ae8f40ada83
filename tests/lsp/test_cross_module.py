"""Analysis across files in the language server (real server over stdio): what a document
imports is read from the open buffers first, then the disk, and editing an imported file
re-publishes the diagnostics of the open files that import it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.engine.test_cross_module import DATA, MODELS, TRAIN
from tests.lsp.support import change_doc, open_doc, record, start


async def _published(client: LanguageClient, uri: str, count: int, timeout: float = 20.0) -> list[types.Diagnostic]:
    """The diagnostics of the `count`-th publish for `uri`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        published = record(client).published.get(uri, [])
        if len(published) >= count:
            return list(published[count - 1].diagnostics)
        await asyncio.sleep(0.02)
    raise AssertionError(f"fewer than {count} publishes for {uri} within {timeout} s")


@pytest.mark.asyncio
async def test_open_buffers_come_first_and_an_edit_of_an_import_republishes(client: LanguageClient, tmp_path: Path) -> None:
    fixed = DATA.replace("torch.from_numpy(self.x[i])", "torch.from_numpy(self.x[i]).float()")
    (tmp_path / "data.py").write_text(fixed, encoding="utf-8")  # on disk: correct
    (tmp_path / "models.py").write_text(MODELS, encoding="utf-8")
    (tmp_path / "train.py").write_text(TRAIN, encoding="utf-8")
    await start(client, root=tmp_path)
    data_uri, _ = open_doc(client, tmp_path / "data.py", DATA)  # in the editor: the float64 version, unsaved
    train_uri, _ = open_doc(client, tmp_path / "train.py")
    diags = await _published(client, train_uri, 1)
    assert [(d.code, d.range.start.line) for d in diags] == [("DG004", 10)]
    [root] = [r for r in diags[0].related_information or [] if r.message == "the fix goes here"]
    assert root.location.uri == (tmp_path / "data.py").resolve().as_uri() and root.location.range.start.line == 14

    change_doc(client, data_uri, 2, fixed)  # fix it in the imported file: train.py is analysed again
    assert await _published(client, train_uri, 2) == []


async def _latest_until(client: LanguageClient, uri: str, test: object, timeout: float = 20.0) -> list[types.Diagnostic]:
    """The diagnostics of the newest publish for `uri`, once `test` accepts them."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        published = record(client).published.get(uri, [])
        if published and test(list(published[-1].diagnostics)):  # type: ignore[operator]
            return list(published[-1].diagnostics)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no publish for {uri} passed the test within {timeout} s: {record(client).published.get(uri, [])[-1:]}")


@pytest.mark.asyncio
async def test_the_root_in_another_open_document_is_shown_there_and_goes_with_the_fix_or_the_close(client: LanguageClient, tmp_path: Path) -> None:
    """Issue 16: the float64 dataset in data.py that train.py trips on is a diagnostic of data.py
    too, at the root, with the failing line of train.py as related information."""
    for name, text in (("data.py", DATA), ("models.py", MODELS), ("train.py", TRAIN)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    await start(client, root=tmp_path)
    data_uri, _ = open_doc(client, tmp_path / "data.py")
    train_uri, _ = open_doc(client, tmp_path / "train.py")
    diags = await _latest_until(client, data_uri, lambda d: bool(d))
    assert [(d.code, d.range.start.line) for d in diags] == [("DG004", 14)]
    assert "when train.py runs it" in diags[0].message
    fails = [r for r in diags[0].related_information or [] if r.message.startswith("fails here")]
    assert fails and fails[0].location.uri == train_uri and fails[0].location.range.start.line == 10

    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=train_uri)))
    assert await _latest_until(client, data_uri, lambda d: d == []) == []  # train.py no longer runs it

    train_uri, _ = open_doc(client, tmp_path / "train.py", version=2)
    await _latest_until(client, data_uri, lambda d: bool(d))
    change_doc(client, data_uri, 2, DATA.replace("torch.from_numpy(self.x[i])", "torch.from_numpy(self.x[i]).float()"))
    assert await _latest_until(client, data_uri, lambda d: d == []) == []
