"""Workspace diagnostics (setting `workspaceDiagnostics`, issue 16): every Python file of the
workspace gets its findings pushed, not only the open ones, under a progress; an open file keeps
its live analysis, a closed one gets its file's back; turning the setting off takes them back."""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.support import H06, open_doc, record, start, wait_published


async def _until(probe, timeout: float = 30.0):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def _project(tmp_path: Path) -> tuple[Path, Path, Path]:
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    hazard = root / "pkg" / "train.py"
    shutil.copy(H06, hazard)
    clean = root / "clean.py"
    clean.write_text("import torch\nx = torch.zeros(3)\n", encoding="utf-8")
    ignored = root / "build" / "gen.py"  # .gitignore'd, as `dtypeguard check` skips it
    ignored.parent.mkdir()
    shutil.copy(H06, ignored)
    (root / ".gitignore").write_text("build/\n", encoding="utf-8")
    return root, hazard, clean


async def test_off_by_default_nothing_unopened_is_published(client: LanguageClient, tmp_path: Path) -> None:
    root, hazard, _clean = _project(tmp_path)
    await start(client, root=root)
    await asyncio.sleep(0.5)
    assert hazard.as_uri() not in record(client).published


async def test_every_file_of_the_workspace_then_taken_back(client: LanguageClient, tmp_path: Path) -> None:
    root, hazard, clean = _project(tmp_path)
    await start(client, root=root, settings={"workspaceDiagnostics": True})
    diags = await wait_published(client, hazard.as_uri())
    assert "DG004" in {d.code for d in diags}
    assert not await wait_published(client, clean.as_uri())
    assert (root / "build" / "gen.py").as_uri() not in record(client).published
    reports = [r for token, rs in client.progress_reports.items() if str(token).startswith("dtypeguard-workspace") for r in rs]
    assert [type(r).__name__ for r in reports][:1] == ["WorkDoneProgressBegin"]
    await _until(lambda: any(isinstance(r, types.WorkDoneProgressEnd) for rs in client.progress_reports.values() for r in rs))

    # open: the buffer's analysis (an edit the disk does not have); close: the file's again
    uri, _text = open_doc(client, hazard, text=H06.read_text(encoding="utf-8") + "\n", version=1)
    assert "DG004" in {d.code for d in await wait_published(client, uri, 1)}
    count = len(record(client).published[uri])
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await _until(lambda: len(record(client).published[uri]) >= count + 2)  # cleared, then from disk
    assert "DG004" in {d.code for d in record(client).published[uri][-1].diagnostics}

    # the setting off: what was pushed for files not open is taken back
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"dtypeguard": {"workspaceDiagnostics": False}})
    )
    await _until(lambda: not record(client).published[hazard.as_uri()][-1].diagnostics)
