"""Code lenses: "Verify on CPU", "Verify on GPU" and "Verify run-through" above each optimizer
construction; after a run their titles show its result (`verifier.Verifier.title`). A file
with safe fixes also gets "Fix and verify" after the first optimizer's (`fixverify.py`; not in
notebooks).

Verify runs the user's code, so there are no lenses in an untrusted workspace. Showing them
starts the warm worker for the CPU (it imports torch and nothing of the user's), so the first
click answers in about a second. A lens request waits at most `HOVER_WAIT_S` for the current
analysis and otherwise uses the last one that parsed, so lenses do not flicker while typing.
In a notebook the lenses go on the first cell that builds an optimizer, with the notebook's URI.
"""

from __future__ import annotations

from lsprotocol import types

from dtypeguard.lsp.documents import Analysis
from dtypeguard.lsp.session import HOVER_WAIT_S, Session

OPTIONS = types.CodeLensOptions(resolve_provider=False)


async def code_lens(session: Session, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    nb_uri = session.notebook_of_cell(uri)
    if nb_uri is not None:
        return await cell_code_lens(session, uri, nb_uri)
    state = session.state(uri)
    if not session.trusted:
        return []
    try:
        analysis: Analysis | None = await session.analysis(uri, HOVER_WAIT_S)
    except TimeoutError:
        analysis = None
    if analysis is None or not analysis.usable:
        analysis = state.good
    if analysis is None:
        return []
    if analysis.result.optimizer_sites:
        # a click is likely: import torch now (no user code runs) so it answers in ~1 s
        session.verifier.prewarm(session.settings.python, "cpu")
    fixable = state.path is not None and any(fix.safe for f in analysis.result.findings for fix in f.fixes)
    return session.verifier.lenses(
        uri, analysis.result.optimizer_sites, analysis.lines, session.encoding, state.version, fixable=fixable,
    )


async def cell_code_lens(session: Session, uri: str, nb_uri: str) -> list[types.CodeLens]:
    """The Verify lenses go on the first cell that builds an optimizer, above it."""
    state = session.state(nb_uri)
    if not session.trusted:
        return []
    try:
        analysis: Analysis | None = await session.analysis(nb_uri, HOVER_WAIT_S)
    except TimeoutError:
        analysis = None
    if analysis is None or not analysis.usable:
        analysis = state.good
    if analysis is None or not analysis.result.optimizer_sites:
        return []
    view = session.notebooks.view(nb_uri, analysis.text)
    if view is None:
        return []
    first = view.script.cell_span(min(span for span, _ in analysis.result.optimizer_sites))
    if first is None or view.uris.get(first[0]) != uri:
        return []
    cls = next(c for span, c in analysis.result.optimizer_sites if view.script.cell_span(span) == first)
    session.verifier.prewarm(session.settings.python, "cpu")
    return session.verifier.lenses(nb_uri, [(first[1], cls)], view.cell_lines(first[0]), session.encoding, state.version)
