"""Hover: what the engine knows at a position (`dtypeguard.hover`) and why a finding there
matters (its rule's explanation).

The engine's markdown comes first; each finding under the cursor (or failing on its line
because of an earlier one) adds its rule's explanation, so a hover on a finding still explains
it when `hover_markdown` fails (that failure is logged, not raised). A hover waits at most
`HOVER_WAIT_S` for the analysis of the current text and answers nothing past it: the user has
moved on. In a notebook cell, line numbers are rewritten as cells and lines, and a cell whose
execution order disagrees with the cell order says so.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from dtypeguard.findings import Span
from dtypeguard.lsp import convert
from dtypeguard.lsp.documents import Analysis
from dtypeguard.lsp.session import HOVER_WAIT_S, Session


async def hover(session: Session, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    nb_uri = session.notebook_of_cell(uri)
    if nb_uri is not None:
        return await cell_hover(session, params, nb_uri)
    session.state(uri)
    lines_now = convert.Lines(session.text_of(uri))
    if not 0 <= params.position.line < len(lines_now):
        raise JsonRpcInvalidParams(message=f"position line {params.position.line} is outside the document ({len(lines_now)} lines)")
    try:
        analysis = await session.analysis(uri, HOVER_WAIT_S)
    except TimeoutError:
        return None
    if not analysis.usable:
        return None
    line, col = convert.from_position(analysis.lines, params.position, session.encoding)
    parts: list[str] = []
    try:
        from dtypeguard.hover import hover_markdown

        markdown = hover_markdown(analysis.result, line, col)
        if markdown:
            parts.append(markdown.strip())
    except Exception as exc:
        session.log(f"dtypeguard: hover_markdown failed: {exc!r}", types.MessageType.Error)
    parts += explanations(analysis, line, col)
    return _hover(parts)


async def cell_hover(session: Session, params: types.HoverParams, nb_uri: str) -> types.Hover | None:
    try:
        analysis = await session.analysis(nb_uri, HOVER_WAIT_S)
    except TimeoutError:
        return None
    view = session.notebook_view(analysis, nb_uri)
    cell = view.index_of(params.text_document.uri)
    if cell is None:
        return None
    parts: list[str] = []
    lines = view.cell_lines(cell)
    line, col = convert.from_position(lines, params.position, session.encoding)
    at = view.to_script(cell, Span(line, col, line, col))
    if analysis.usable and at is not None:
        from dtypeguard.hover import hover_markdown

        markdown = hover_markdown(analysis.result, at.line, at.col)
        if markdown:
            parts.append(markdown.strip())
        parts += explanations(analysis, at.line, at.col)
    parts = [view.script.rewrite_lines(p) for p in parts]
    note = view.order_notes.get(cell)
    if note:
        parts.append(note)
    return _hover(parts)


def explanations(analysis: Analysis, line: int, col: int) -> list[str]:
    """The explanation of each rule with a finding at (line, col), or whose finding fails there."""
    from dtypeguard.rules import BY_CODE

    out: list[str] = []
    seen: set[str] = set()
    for finding in analysis.result.findings:
        fails = any(r.fails and r.span.contains(line, col) for r in finding.related)
        if not (finding.span.contains(line, col) or fails) or finding.code in seen:
            continue
        seen.add(finding.code)
        rule = BY_CODE.get(finding.code)
        text = f"**{finding.code}**"
        if fails and not finding.span.contains(line, col):
            text = f"This line fails because of line {finding.span.line}: {finding.message}.\n\n{text}"
        if rule is not None:
            text += f" ({rule.name}): {rule.explanation}"
            url = convert.rule_url(rule.code)
            if url:
                text += f" [Documentation]({url})"
        if finding.note:
            text += f"\n\n{finding.note}"
        out.append(text)
    return out


def _hover(parts: list[str]) -> types.Hover | None:
    if not parts:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))
