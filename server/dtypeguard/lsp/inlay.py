"""Inlay hints: the dtype/device the engine infers, after the names assigned in a range.

Off unless the `inlayHints` setting is on (`configuration.py` asks the client to refresh them
when it changes). Like hovers, they wait at most `HOVER_WAIT_S` for the analysis of the current
text and are left out rather than late; in a notebook cell only the hints inside that cell are
given, at cell-relative positions.
"""

from __future__ import annotations

from lsprotocol import types

from dtypeguard.lsp import convert
from dtypeguard.lsp.session import HOVER_WAIT_S, Session

OPTIONS = types.InlayHintOptions(resolve_provider=False)


async def inlay_hint(session: Session, params: types.InlayHintParams) -> list[types.InlayHint]:
    uri = params.text_document.uri
    nb_uri = session.notebook_of_cell(uri)
    if nb_uri is None:
        session.state(uri)
    if not session.settings.inlay_hints:
        return []
    if nb_uri is not None:
        return await cell_inlay_hints(session, params, nb_uri)
    try:
        analysis = await session.analysis(uri, HOVER_WAIT_S)
    except TimeoutError:
        return []
    if not analysis.usable:
        return []
    span = convert.from_range(analysis.lines, params.range, session.encoding)
    try:
        from dtypeguard.hover import inlay_hints
    except Exception as exc:
        session.log(f"dtypeguard: inlay hints unavailable: {exc!r}", types.MessageType.Warning)
        return []
    out: list[types.InlayHint] = []
    for hint in inlay_hints(analysis.result, span.line, span.end_line):
        out.append(types.InlayHint(
            position=convert.position(analysis.lines, hint.line, hint.col, session.encoding),
            label=hint.label,
            kind=types.InlayHintKind.Type,
            tooltip=hint.tooltip or None,
            padding_left=True,
        ))
    return out


async def cell_inlay_hints(session: Session, params: types.InlayHintParams, nb_uri: str) -> list[types.InlayHint]:
    try:
        analysis = await session.analysis(nb_uri, HOVER_WAIT_S)
    except TimeoutError:
        return []
    if not analysis.usable:
        return []
    view = session.notebook_view(analysis, nb_uri)
    cell = view.index_of(params.text_document.uri)
    if cell is None:
        return []
    lines = view.cell_lines(cell)
    span = view.to_script(cell, convert.from_range(lines, params.range, session.encoding))
    if span is None:
        return []
    from dtypeguard.hover import inlay_hints

    out: list[types.InlayHint] = []
    for hint in inlay_hints(analysis.result, span.line, span.end_line):
        where = view.script.locate(hint.line)
        if where is None or where[0] != cell:
            continue
        out.append(types.InlayHint(
            position=convert.position(lines, where[1], hint.col, session.encoding), label=hint.label,
            kind=types.InlayHintKind.Type, tooltip=view.script.rewrite_lines(hint.tooltip) or None, padding_left=True,
        ))
    return out
