"""Recall and precision on the held-out corpus (scripts written without seeing the engine).

Scored, not matched exactly: the issue's bar is >= 90% of real hazards found and zero findings
on correct code. Measured when the corpus arrived (before any engine change for it): 26/35
found (74%), 1 false positive. Misses that remain are listed in tests/heldout/README.md.
"""

from __future__ import annotations

from dtypeguard.analysis import check_source
from tests.engine.expectations import expected, files

HAZARDS = files("tests/heldout/hazards")
CLEAN = files("tests/heldout/clean")


def test_heldout_recall_is_at_least_90_percent() -> None:
    assert len(HAZARDS) >= 25
    wanted = found = 0
    for path in HAZARDS:
        text = path.read_text(encoding="utf-8")
        marks = expected(text)
        got = {(f.span.line, f.code) for f in check_source(text, str(path)).findings}
        wanted += len(marks)
        found += len(marks & got)
    assert found / wanted >= 0.9, f"found {found}/{wanted}"


def test_heldout_hazard_files_have_no_unexpected_findings() -> None:
    extra = []
    for path in HAZARDS:
        text = path.read_text(encoding="utf-8")
        got = {(f.span.line, f.code) for f in check_source(text, str(path)).findings}
        extra += [(path.name, line, code) for line, code in got - expected(text)]
    assert extra == []


def test_heldout_clean_files_are_clean() -> None:
    assert len(CLEAN) >= 20
    noisy = [(p.name, f.span.line, f.code) for p in CLEAN for f in check_source(p.read_text(encoding="utf-8"), str(p)).findings]
    assert noisy == []
