"""Diagnostics for every Python file of the workspace, not only the open ones.

Off by default (setting `workspaceDiagnostics`): a big workspace would cost a full analysis of
every file at start. When on, after `initialized` and whenever the setting turns on, the files
under the workspace root (as `dtypeguard check` finds them: .gitignore'd files and tool folders
such as `.venv`, `.git`, `node_modules` skipped) are analysed one at a time off the event loop, under a work-done progress, and their
diagnostics are pushed; an open document keeps the live analysis of its buffer instead, and a
document that closes gets the analysis of its file on disk back. Turning the setting off (or a
new scan) takes back what was pushed. A scan stops early when a newer one starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import uuid
from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path

from dtypeguard.lsp import convert
from dtypeguard.lsp.background import spawn
from dtypeguard.lsp.session import Session

MAX_FILES = 5_000  # beyond this the scan stops and says so: `dtypeguard check` is the tool then


def _findings(session: Session, path: Path) -> list[types.Diagnostic] | None:
    """One file's diagnostics from disk (worker thread); None if it cannot be read."""
    from dtypeguard.analysis import check_source

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    result = check_source(text, str(path), session.config_for(str(path)))
    lines = convert.Lines(text)
    uri = from_fs_path(str(path)) or path.as_uri()
    return [convert.diagnostic(f, lines, uri, session.encoding) for f in result.findings]


def _files(root: str) -> list[Path]:
    from dtypeguard.files import iter_python_files

    return [p for p in iter_python_files([root]) if p.suffix == ".py"][: MAX_FILES + 1]


async def scan(session: Session) -> int:
    """Analyse and publish the workspace's files (when the setting is on); returns how many."""
    session.workspace_scan += 1
    generation = session.workspace_scan
    clear(session)
    root = session.workspace.root_path
    if not session.settings.workspace_diagnostics or not root:
        return 0
    listing, _thread = spawn(lambda: _files(root), "dtypeguard-workspace-files")
    files = await listing
    if len(files) > MAX_FILES:
        session.show(f"dtypeguard: the workspace has more than {MAX_FILES} Python files; workspace diagnostics "
                     "cover the first ones (run `dtypeguard check` for all)", types.MessageType.Warning)
        files = files[:MAX_FILES]
    token = await _begin(session, len(files))
    done = 0
    try:
        for path in files:
            if generation != session.workspace_scan or not session.settings.workspace_diagnostics:
                return done  # a newer scan (or the setting went off) took over
            uri = from_fs_path(str(path)) or path.as_uri()
            if uri in session.documents.docs:
                continue  # open: the live analysis of the buffer is the truth
            checked, _thread = spawn(functools.partial(_findings, session, path), "dtypeguard-workspace-file")
            diags = await checked
            done += 1
            if diags is not None and uri not in session.documents.docs:
                session.workspace_published.add(uri)
                session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diags))
            if token is not None and done % 20 == 0:
                with contextlib.suppress(Exception):
                    session.client.work_done_progress.report(
                        token, types.WorkDoneProgressReport(message=f"{done}/{len(files)} files", percentage=done * 100 // max(1, len(files)))
                    )
            await asyncio.sleep(0)  # typing in open documents goes first
    finally:
        if token is not None:
            with contextlib.suppress(Exception):
                session.client.work_done_progress.end(token, types.WorkDoneProgressEnd(message=f"{done} files checked"))
    return done


async def closed(session: Session, uri: str) -> None:
    """A closed document keeps diagnostics of its file on disk while the setting is on."""
    path = session.path_of(uri)
    if not session.settings.workspace_diagnostics or path is None or not path.endswith(".py"):
        return
    future, _thread = spawn(lambda: _findings(session, Path(path)), "dtypeguard-workspace-file")
    diags = await future
    if diags is not None and uri not in session.documents.docs:
        session.workspace_published.add(uri)
        session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diags))


def clear(session: Session) -> None:
    """Take back the diagnostics pushed for files that are not open."""
    for uri in list(session.workspace_published):
        if uri not in session.documents.docs:
            with contextlib.suppress(Exception):
                session.client.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    session.workspace_published.clear()


async def _begin(session: Session, count: int) -> str | None:
    window = session.caps.window
    if window is None or not window.work_done_progress:
        return None
    token = f"dtypeguard-workspace-{uuid.uuid4()}"
    try:
        await asyncio.wait_for(session.client.work_done_progress.create_async(token), 10)
        session.client.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="dtypeguard", message=f"checking {count} workspace files", percentage=0)
        )
    except Exception:
        return None
    return token
