"""Text edits: apply them, derive minimal ones from two texts, and tell when two overlap.

Every fix is computed as a whole new text by a libcst transform (so formatting is whatever
libcst reproduces, which is the user's own); the language server, however, wants small edits
it can apply without replacing the buffer, and composition wants to know whether two fixes
touch the same characters. So the new text is diffed back into `TextEdit`s here, and
`apply_edits` is the single definition of what an edit means, shared by CLI, LSP and tests.

Positions follow `dtypeguard.findings.Span`: 1-based lines split on "\\n" only (a "\\r" of a CRLF
line ending is an ordinary character at the end of its line), 0-based code point columns.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Iterable, Sequence

from dtypeguard.engine.parse import LINE_END, lines_with_ends
from dtypeguard.findings import Span, TextEdit


class LineOffsets:
    """Offsets of line starts, to convert (line, col) <-> string offset in O(1)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        if "\r" in text:  # lines end at "\r\n", "\r" or "\n", as in `ast` and LSP
            self.starts.extend(m.end() for m in LINE_END.finditer(text))
            return
        pos = text.find("\n")
        while pos != -1:
            self.starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def offset(self, line: int, col: int) -> int:
        """The string offset of a position; out-of-range positions are clamped to the text."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        end = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        return min(start + max(col, 0), end)

    def position(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo]


def _offsets(index: LineOffsets, edit: TextEdit) -> tuple[int, int]:
    start = index.offset(edit.span.line, edit.span.col)
    end = index.offset(edit.span.end_line, edit.span.end_col)
    return start, max(start, end)


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply edits that refer to positions in `text` (not to each other's results).

    Raises ValueError when two edits overlap: an overlapping set has no single meaning, and
    guessing one would make the CLI and the editor disagree.
    """
    index = LineOffsets(text)
    ranges = sorted((*_offsets(index, e), i) for i, e in enumerate(edits))
    for (s1, e1, i1), (s2, e2, i2) in itertools.pairwise(ranges):
        if _overlap(s1, e1, s2, e2):
            raise ValueError(f"overlapping edits: {edits[i1]!r} and {edits[i2]!r}")
    out: list[str] = []
    last = 0
    for start, end, i in ranges:
        out.append(text[last:start])
        out.append(edits[i].new_text)
        last = end
    out.append(text[last:])
    return "".join(out)


def _overlap(s1: int, e1: int, s2: int, e2: int) -> bool:
    """Ranges conflict when they share characters, or when two edits start at the same point
    and one of them is an insertion (their order would be a guess)."""
    if s1 == s2:
        return True
    return max(s1, s2) < min(e1, e2)


def edits_overlap(text: str, a: Iterable[TextEdit], b: Iterable[TextEdit]) -> bool:
    index = LineOffsets(text)
    ra = [_offsets(index, e) for e in a]
    rb = [_offsets(index, e) for e in b]
    for s1, e1 in ra:
        for s2, e2 in rb:
            if _overlap(s1, e1, s2, e2):
                return True
    return False


def diff_edits(old: str, new: str) -> list[TextEdit]:
    """Minimal-ish edits turning `old` into `new`: a line diff, each changed block trimmed to
    the characters that really differ. Verified: applying them reproduces `new` exactly."""
    if old == new:
        return []
    index = LineOffsets(old)
    old_lines, new_lines = lines_with_ends(old), lines_with_ends(new)
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    line_starts = [0]
    for line in old_lines:
        line_starts.append(line_starts[-1] + len(line))
    new_starts = [0]
    for line in new_lines:
        new_starts.append(new_starts[-1] + len(line))
    edits: list[TextEdit] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a = old[line_starts[i1] : line_starts[i2]]
        b = new[new_starts[j1] : new_starts[j2]]
        prefix = _common_prefix(a, b)
        suffix = _common_suffix(a[prefix:], b[prefix:])
        start = line_starts[i1] + prefix
        end = line_starts[i2] - suffix
        first, col = index.position(start)
        end_line, end_col = index.position(end)
        edits.append(TextEdit(Span(first, col, end_line, end_col), b[prefix : len(b) - suffix]))
    if apply_edits(old, edits) != new:  # pragma: no cover - a bug here must never reach a file
        raise AssertionError("derived edits do not reproduce the new text")
    return edits


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _common_suffix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[-1 - i] == b[-1 - i]:
        i += 1
    return i
