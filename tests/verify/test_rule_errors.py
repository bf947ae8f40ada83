"""A rule is one place: the runtime errors verify maps to a rule live in the rule's module.

`verify/explain.py` builds its table from the rule registry. These tests keep that table honest:
every code verify names is a registry rule, every rule's error pattern matches the real torch
message it was written from (`ErrorPattern.recorded`), that message is where the pattern says it
was recorded (shared docs/hazards.md, or a file under tests/), and verify explains it as that
rule with that rule's hint.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from dtypeguard.rules import BY_CODE, RULES
from dtypeguard.rules.base import ErrorPattern, Rule
from dtypeguard.verify.explain import HINTS, NO_RULE, PATTERNS, RULE_NAMES, explain

REPO = Path(__file__).resolve().parents[2]
VERIFY = REPO / "server" / "dtypeguard" / "verify"
# shared/ sits in the checkout when it has one, else next to it (/work/shared for /work/main)
HAZARDS = next(
    (p for p in (REPO / "shared/docs/hazards.md", REPO.parent / "shared/docs/hazards.md") if p.is_file()),
    None,
)
ROWS = [(rule, p) for rule in RULES for p in rule.errors]
ROW_IDS = [f"{rule.code}-{i}" for rule in RULES for i, _ in enumerate(rule.errors)]


def _context(p: ErrorPattern) -> tuple[str, str, str]:
    """The error type, traceback and script text under which the row applies."""
    return (p.error_types[0] if p.error_types else "RuntimeError", p.traceback_contains or "", p.source_contains or "")


def test_every_code_verify_maps_to_is_a_registry_rule() -> None:
    for row in PATTERNS:
        if row.code is None:
            assert row.pattern.hint, "a row that names no rule must say something itself"
            continue
        assert row.code in BY_CODE, f"verify maps errors to {row.code}, which is not in the rule registry"
        assert RULE_NAMES[row.code] == BY_CODE[row.code].name
        assert HINTS.get(row.code) or row.pattern.hint, f"{row.code} has error patterns but no hint"
    # the table is the registry's, nothing left off or added: specific rows, general rows, no rule
    expected = [
        *((rule.code, p) for rule, p in ROWS if not p.general),
        *((rule.code, p) for rule, p in ROWS if p.general),
        *((None, p) for p in NO_RULE),
    ]
    assert [(row.code, row.pattern) for row in PATTERNS] == expected


def test_verify_names_no_code_outside_the_registry() -> None:
    """Codes written by hand in verify (step warnings, run-through results) are registry rules."""
    for path in sorted(VERIFY.glob("*.py")):
        for code in set(re.findall(r"\bDG\d{3}\b", path.read_text(encoding="utf-8"))):
            assert code in BY_CODE, f"{path.name} names {code}, which is not in the rule registry"


@pytest.mark.parametrize(("rule", "pattern"), ROWS, ids=ROW_IDS)
def test_pattern_matches_the_message_it_claims(rule: Rule, pattern: ErrorPattern) -> None:
    assert re.search(pattern.regex, pattern.recorded), (
        f"{rule.code}: {pattern.regex!r} does not match its recorded message {pattern.recorded!r}"
    )
    error_type, traceback, source = _context(pattern)
    found = explain(error_type, pattern.recorded, traceback, source)
    assert found is not None and found.code == rule.code, (
        f"{pattern.recorded!r} is explained as {found and found.code}, not {rule.code}: an earlier row claims it"
    )
    assert found.hint == (pattern.hint or rule.hint)


@pytest.mark.parametrize(("rule", "pattern"), ROWS, ids=ROW_IDS)
def test_recorded_message_is_where_the_pattern_says(rule: Rule, pattern: ErrorPattern) -> None:
    if pattern.source.startswith("hazards.md "):
        hazard = pattern.source.removeprefix("hazards.md ")
        assert hazard in rule.hazards, f"{rule.code} claims a message of {hazard}, not one of its hazards"
        if HAZARDS is None:
            pytest.skip("shared/docs/hazards.md is not in this checkout")
        sections = re.split(r"^## ", HAZARDS.read_text(encoding="utf-8"), flags=re.M)
        section = next((s for s in sections if s.startswith(f"{hazard}-")), None)
        assert section is not None, f"no section {hazard} in hazards.md"
        assert pattern.recorded in section, f"{pattern.recorded!r} is not recorded in hazards.md {hazard}"
        return
    path = REPO / pattern.source
    assert pattern.source.startswith("tests/") and path.is_file(), pattern.source
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":  # string constants, so a message split over lines still counts
        strings = [n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        assert any(pattern.recorded in s for s in strings), f"{pattern.recorded!r} is not in {pattern.source}"
    else:
        assert pattern.recorded in text, f"{pattern.recorded!r} is not in {pattern.source}"


def test_specific_rows_of_different_rules_never_claim_one_message() -> None:
    """Rows are tried in registry order; that order decides nothing as long as no specific row
    matches another rule's recorded message (conditions aside). General rows come last on
    purpose: DG004's "must have the same dtype" also matches DG005's and DG017's messages."""
    specific = [(rule, p) for rule, p in ROWS if not p.general]
    for rule, p in specific:
        for other, q in specific:
            if other.code != rule.code:
                assert not re.search(q.regex, p.recorded), (
                    f"{other.code}'s {q.regex!r} also matches {rule.code}'s {p.recorded!r}"
                )


def test_no_rule_rows_match_what_they_claim() -> None:
    for p in NO_RULE:
        assert re.search(p.regex, p.recorded)
        error_type, traceback, source = _context(p)
        found = explain(error_type, p.recorded, traceback, source)
        assert found is not None and found.code is None and found.hint == p.hint
