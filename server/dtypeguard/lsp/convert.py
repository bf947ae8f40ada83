"""Engine positions and findings -> LSP, and back.

The engine speaks 1-based lines and 0-based code-point columns; LSP speaks 0-based lines and
columns in the negotiated encoding (UTF-16 unless the client offered another). Lines are split
on "\\n" exactly as the engine splits them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from pathlib import Path

from lsprotocol import types

from dtypeguard.engine.parse import lines_with_ends, split_lines
from dtypeguard.findings import Finding, Related, Severity, Span
from dtypeguard.findings import TextEdit as ModelEdit

SOURCE = "dtypeguard"
VERIFY_SOURCE = "dtypeguard.verify"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFORMATION: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


class Lines:
    """A text's lines, for column conversion (built once per text)."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)

    def __len__(self) -> int:
        return len(self.lines)

    def text(self, line0: int) -> str:
        if 0 <= line0 < len(self.lines):
            return self.lines[line0].rstrip("\r")
        return ""


def _units(chars: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf32:
        return len(chars)
    if encoding == types.PositionEncodingKind.Utf8:
        return len(chars.encode("utf-8", errors="surrogatepass"))
    return len(chars) + sum(1 for c in chars if ord(c) > 0xFFFF)


def to_client_col(line_text: str, col: int, encoding: str) -> int:
    col = max(0, min(col, len(line_text)))
    if line_text.isascii():
        return col
    return _units(line_text[:col], encoding)


def from_client_col(line_text: str, units: int, encoding: str) -> int:
    """Client units -> code points (clamped to the line)."""
    if units <= 0:
        return 0
    if line_text.isascii() or encoding == types.PositionEncodingKind.Utf32:
        return min(units, len(line_text))
    seen = 0
    for index, char in enumerate(line_text):
        seen += _units(char, encoding)
        if seen > units:
            return index
    return len(line_text)


def position(lines: Lines, line1: int, col: int, encoding: str) -> types.Position:
    """An engine position, clamped into the text."""
    line0 = max(0, min(line1 - 1, len(lines) - 1))
    if line1 - 1 > line0:  # past the end: the end of the last line
        col = len(lines.text(line0))
    return types.Position(line=line0, character=to_client_col(lines.text(line0), col, encoding))


def to_range(lines: Lines, span: Span, encoding: str) -> types.Range:
    start = position(lines, span.line, span.col, encoding)
    end = position(lines, span.end_line, span.end_col, encoding)
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return types.Range(start=start, end=end)


def from_position(lines: Lines, pos: types.Position, encoding: str) -> tuple[int, int]:
    """An LSP position -> (1-based line, 0-based code point column), clamped into the text."""
    line0 = max(0, min(pos.line, len(lines) - 1))
    return line0 + 1, from_client_col(lines.text(line0), pos.character, encoding)


def from_range(lines: Lines, rng: types.Range, encoding: str) -> Span:
    line, col = from_position(lines, rng.start, encoding)
    end_line, end_col = from_position(lines, rng.end, encoding)
    return Span(line, col, end_line, end_col)


def rule_url(code: str) -> str | None:
    """The rule's reference page shipped with this version (rule_docs.py), or None."""
    try:
        from dtypeguard.rule_docs import rule_doc_uri

        return rule_doc_uri(code)
    except Exception:  # pragma: no cover - a link is optional, the diagnostic is not
        return None


_MADE: dict[tuple[object, ...], types.Diagnostic] = {}  # see `diagnostic`


def diagnostic(finding: Finding, lines: Lines, uri: str, encoding: str) -> types.Diagnostic:
    """The LSP diagnostic of a finding. A keystroke republishes every finding of the file, most
    of them unchanged: building lsprotocol objects was most of a publish, so each is made once
    for what the diagnostic shows (code, severity, message, related information) and the text
    of the lines its ranges read (columns and clamping depend on nothing else), and handed out
    again (never changed after it is made). The key leaves out the fixes: hashing them cost
    as much as the conversion."""
    spans = [finding.span, *(r.span for r in finding.related if not r.span.file)]
    key = (
        finding.code, finding.severity, finding.message, finding.related, uri, encoding, len(lines),
        tuple((s.line, s.col, s.end_line, s.end_col, lines.text(s.line - 1), lines.text(s.end_line - 1)) for s in spans),
    )
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) > 4096:
            _MADE.clear()
        made = _MADE[key] = _diagnostic(finding, lines, uri, encoding)
    return made


def _diagnostic(finding: Finding, lines: Lines, uri: str, encoding: str) -> types.Diagnostic:
    url = rule_url(finding.code)
    related = [_related(r, lines, uri, encoding) for r in finding.related]
    tags = [types.DiagnosticTag.Deprecated] if finding.code == "DG002" else None
    return types.Diagnostic(
        range=to_range(lines, finding.span, encoding),
        message=finding.message,
        severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related or None,
        tags=tags,
    )


def _related(rel: Related, lines: Lines, uri: str, encoding: str) -> types.DiagnosticRelatedInformation:
    if rel.span.file:  # a place in a file this one imports: its own URI; columns as counted there
        start = types.Position(line=max(rel.span.line - 1, 0), character=rel.span.col)
        end = types.Position(line=max(rel.span.end_line - 1, 0), character=rel.span.end_col)
        return types.DiagnosticRelatedInformation(
            location=types.Location(uri=Path(rel.span.file).as_uri(), range=types.Range(start=start, end=end)),
            message=rel.message,
        )
    return types.DiagnosticRelatedInformation(
        location=types.Location(uri=uri, range=to_range(lines, rel.span, encoding)),
        message=rel.message,
    )


def text_edits(edits: Iterable[ModelEdit], lines: Lines, encoding: str) -> list[types.TextEdit]:
    return [types.TextEdit(range=to_range(lines, e.span, encoding), new_text=e.new_text) for e in edits]


def diff_edits(old: str, new: str, encoding: str) -> list[types.TextEdit]:
    """Minimal line-level edits turning `old` into `new` (whole lines replaced, in order)."""
    if old == new:
        return []
    a = lines_with_ends(old)
    b = lines_with_ends(new)
    lines = Lines(old)
    out: list[types.TextEdit] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start = _line_start(a, i1, lines, encoding)
        end = _line_start(a, i2, lines, encoding)
        out.append(types.TextEdit(range=types.Range(start=start, end=end), new_text="".join(b[j1:j2])))
    return out


def _line_start(a: Sequence[str], index: int, lines: Lines, encoding: str) -> types.Position:
    """The position where line `index` of `a` starts (or the end of the text)."""
    if index < len(a):
        return types.Position(line=index, character=0)
    if not a:
        return types.Position(line=0, character=0)
    last = a[-1]
    if last.endswith("\n"):
        return types.Position(line=len(a), character=0)
    return types.Position(line=len(a) - 1, character=to_client_col(lines.text(len(a) - 1), len(last), encoding))
