"""Tests generated from each rule's own examples: bad ones trigger it where marked, good ones
trigger nothing at all (a false alarm costs more trust than a missed hazard)."""

from __future__ import annotations

import pytest

from dtypeguard.analysis import check_source
from dtypeguard.rules import ALL_RULES
from dtypeguard.rules.base import Rule

BAD = [(r.code, i, src) for r in ALL_RULES for i, src in enumerate(r.examples.bad)]
GOOD = [(r.code, i, src) for r in ALL_RULES for i, src in enumerate(r.examples.good)]


def _marked_lines(src: str) -> set[int]:
    return {n for n, line in enumerate(src.splitlines(), 1) if "# <-" in line}


@pytest.mark.parametrize(("code", "i", "src"), BAD, ids=[f"{c}-bad{i}" for c, i, _ in BAD])
def test_bad_example_triggers_rule_on_marked_line(code: str, i: int, src: str) -> None:
    expected = _marked_lines(src)
    assert expected, "every bad example marks its line with `# <-`"
    found = {f.span.line for f in check_source(src).findings if f.code == code}
    assert found == expected


@pytest.mark.parametrize(("code", "i", "src"), GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_is_clean(code: str, i: int, src: str) -> None:
    findings = check_source(src).findings
    assert [(f.code, f.span.line, f.message) for f in findings] == []


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_rule_is_documented(rule: Rule) -> None:
    assert rule.code.startswith("DG") and len(rule.code) == 5
    assert rule.summary and len(rule.explanation) > 80
    assert rule.examples.bad and rule.examples.good
