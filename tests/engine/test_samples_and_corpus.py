"""The engine on whole scripts: every `# expect: DGxxx` marker found, nothing else reported.

`samples/` are our own documented examples; `tests/corpus/` are scripts written in many styles
by people who did not read the engine, so they stand in for code we have never seen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from tests.engine.expectations import ROOT, expected, files

MARKED = files("samples", "samples/hazards", "tests/corpus/hazards")
CLEAN = files("samples/fixed", "samples/clean", "tests/corpus/clean")


def _found(path: Path) -> set[tuple[int, str]]:
    result = check_source(path.read_text(encoding="utf-8"), str(path))
    assert not result.internal_error
    return {(f.span.line, f.code) for f in result.findings}


@pytest.mark.parametrize("path", MARKED, ids=[str(p.relative_to(ROOT)) for p in MARKED])
def test_hazard_script_reports_exactly_its_markers(path: Path) -> None:
    assert _found(path) == expected(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", CLEAN, ids=[str(p.relative_to(ROOT)) for p in CLEAN])
def test_correct_script_is_clean(path: Path) -> None:
    assert _found(path) == set()


def test_there_is_something_to_test() -> None:
    assert len(MARKED) >= 10 and len(CLEAN) >= 10
