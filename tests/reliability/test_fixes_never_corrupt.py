"""Fixes never corrupt code: for every fix offered on every sample, corpus file and generated
program, the result parses, every byte outside the edited ranges is unchanged (checked with an
independent reading of the edits, not with `apply_edits`), and fix-all is idempotent."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from dtypeguard.analysis import check_source
from dtypeguard.findings import TextEdit
from dtypeguard.fixes.api import edits_for_fix, fix_all, setup_block_edits
from tests.reliability.support import CORPUS, ROOT, SAMPLES, fuzz_settings, torch_programs

FILES = SAMPLES + CORPUS
VARIANTS = ("lf", "crlf", "tabs")


def _variant(text: str, variant: str) -> str:
    if variant == "crlf":
        return text.replace("\n", "\r\n")
    if variant == "tabs":  # indentation by tabs only (Python accepts it when consistent)
        return "\n".join(_tabify(line) for line in text.split("\n"))
    return text


def _tabify(line: str) -> str:
    stripped = line.lstrip(" ")
    width = len(line) - len(stripped)
    return "\t" * (width // 4) + " " * (width % 4) + stripped


def _ranges(text: str, edits: list[TextEdit]) -> list[tuple[int, int, str]]:
    """Edits as string offsets, read independently of the engine; refuses out-of-range or
    overlapping edits instead of clamping them."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def offset(line: int, col: int) -> int:
        assert 1 <= line <= len(lines), f"edit line {line} outside 1..{len(lines)}"
        assert 0 <= col <= len(lines[line - 1]), f"edit column {col} outside line {line}"
        return starts[line - 1] + col

    out = sorted((offset(e.span.line, e.span.col), offset(e.span.end_line, e.span.end_col), e.new_text) for e in edits)
    for (s1, e1, _), (s2, _, _) in itertools.pairwise(out):
        assert s1 <= e1 <= s2 and s1 != s2, "edits overlap"
    return out


def assert_sound(old: str, edits: list[TextEdit], new: str) -> None:
    """`new` is `old` with exactly these edits: byte for byte the same outside them."""
    ranges = _ranges(old, edits)
    pos = 0
    cursor = 0
    for start, end, replacement in ranges:
        kept = old[cursor:start]
        assert new[pos : pos + len(kept)] == kept, f"text changed outside the edits near offset {cursor}"
        pos += len(kept)
        assert new[pos : pos + len(replacement)] == replacement
        pos += len(replacement)
        cursor = end
    assert new[pos:] == old[cursor:], "text changed after the last edit"
    assert new.encode("utf-8", "surrogatepass")[-64:] == (new[:pos] + old[cursor:]).encode("utf-8", "surrogatepass")[-64:]


def check_every_fix(text: str, path: str | None = None) -> int:
    """Every fix of every finding of `text`, one at a time, plus fix-all; returns how many fixes
    were applied."""
    result = check_source(text, path)
    assert not result.internal_error, result.internal_error
    applied = 0
    for finding in result.findings:
        for spec in finding.fixes:
            edits = edits_for_fix(text, spec)
            if edits is None:
                continue
            assert edits, f"{spec.title}: an applicable fix with no edit"
            new = _apply(text, edits)
            assert_sound(text, edits, new)
            _parses(new, f"{finding.code} {spec.kind}")
            applied += 1
    block = setup_block_edits(text)
    if block:
        new = _apply(text, block)
        assert_sound(text, block, new)
        _parses(new, "setup block")
    for unsafe in (False, True):
        once = fix_all(text, path, unsafe=unsafe)
        if once.text != text:
            _parses(once.text, "fix-all")
            assert check_source(once.text, path).parsed
        twice = fix_all(once.text, path, unsafe=unsafe)
        assert twice.text == once.text, "fix-all is not idempotent"
        assert not twice.applied
    return applied


def _apply(text: str, edits: list[TextEdit]) -> str:
    out = text
    for start, end, replacement in reversed(_ranges(text, edits)):
        out = out[:start] + replacement + out[end:]
    return out


def _parses(text: str, what: str) -> None:
    try:
        compile(ast.parse(text), "<fixed>", "exec")
    except SyntaxError as exc:  # pragma: no cover - the failure message is the point
        raise AssertionError(f"{what} produced code that does not parse: {exc}\n{text}") from exc


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_every_fix_on_every_sample_and_corpus_file(path: Path, variant: str) -> None:
    text = _variant(path.read_text(encoding="utf-8"), variant)
    check_every_fix(text, str(path))


def test_samples_offer_fixes_at_all() -> None:
    """Guard against the suite passing vacuously."""
    total = sum(check_every_fix(p.read_text(encoding="utf-8")) for p in SAMPLES if "hazards" in p.parts)
    assert total >= 15


@fuzz_settings(60)
@given(torch_programs())
def test_every_fix_on_generated_torch_programs(text: str) -> None:
    check_every_fix(text)


@fuzz_settings(15)
@given(torch_programs(), hypothesmith.from_grammar(), st.integers(0, 1))
def test_fixes_leave_generated_python_around_them_alone(hazards: str, other: str, order: int) -> None:
    """Hypothesmith programs glued around a hazardous one: fixes touch only what they fix."""
    text = hazards + "\n" + other if order else other + ("" if other.endswith("\n") else "\n") + hazards
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        assume(False)
    check_every_fix(text)
