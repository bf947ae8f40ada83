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
