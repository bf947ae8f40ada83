"""`# dtypeguard: ignore[CODE]` on a finding's line: the escape hatch every finding offers.

An existing `# dtypeguard: ignore[...]` on the line is extended rather than duplicated, and a
bare `# dtypeguard: ignore` already covers every code, so it is left alone.
"""

from __future__ import annotations

from dtypeguard.engine.parse import split_lines
from dtypeguard.findings import SUPPRESS_COMMENT, Finding, Span, TextEdit
from dtypeguard.fixes.textedit import LineOffsets


def suppression_edit(text: str, finding: Finding) -> TextEdit:
    index = LineOffsets(text)
    line_no = finding.span.line
    lines = split_lines(text)
    if not 1 <= line_no <= len(lines):
        line_no = max(1, min(len(lines), line_no))
    line = lines[line_no - 1]
    if line.rstrip("\r").rstrip().endswith("\\") and finding.span.end_line != line_no:
        line_no = finding.span.end_line  # a comment after a line continuation would break it
        line = lines[line_no - 1]
    body = line.rstrip("\r")
    match = SUPPRESS_COMMENT.search(body)
    code = finding.code
    if match is not None:
        if match.group(1) is None:
            return TextEdit(Span(line_no, len(body), line_no, len(body)), "")  # covers all codes
        codes = [c.strip() for c in match.group(1).split(",") if c.strip()]
        if code in {c.upper() for c in codes}:
            return TextEdit(Span(line_no, len(body), line_no, len(body)), "")
        start, end = match.span(1)
        return TextEdit(Span(line_no, start, line_no, end), ", ".join([*codes, code]))
    stripped = body.rstrip()
    col = len(stripped)
    assert index.offset(line_no, col) >= 0
    return TextEdit(Span(line_no, col, line_no, len(body)), f"  # dtypeguard: ignore[{code}]")
