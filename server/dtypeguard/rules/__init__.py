"""The rule catalog: one module per rule, found here in code order.

Every module named `dgNNN_<slug>` in this package is a rule and defines `RULE`; the registry is
built from those modules, so adding a rule is adding its module (nothing to list by hand here).
"""

from __future__ import annotations

import importlib
import pkgutil

from dtypeguard.findings import RuleExamples, Severity
from dtypeguard.rules.base import Rule

PARSE_ERROR = Rule(
    code="DG000",
    name="parse-error",
    severity=Severity.WARNING,
    summary="the file cannot be parsed, so it was not analysed",
    explanation=(
        "dtypeguard analyses only files that parse. While you type, the last finding set stays until "
        "the file parses again. A file that is not UTF-8 is reported and skipped."
    ),
    hazards=(),
    reported_at='the first syntax error',
    check=lambda ctx: iter(()),
    examples=RuleExamples(bad=["def f(:  # <-\n    pass\n"], good=["def f():\n    pass\n"]),
)


def _rule_modules() -> list[str]:
    return sorted(
        m.name
        for m in pkgutil.iter_modules(__path__)
        if m.name[:2] == "dg" and m.name[2:5].isdigit()
    )


def _load(name: str) -> Rule:
    rule = getattr(importlib.import_module(f"{__name__}.{name}"), "RULE", None)
    if not isinstance(rule, Rule):
        raise ImportError(f"rule module {__name__}.{name} defines no RULE")
    return rule


RULES: tuple[Rule, ...] = tuple(_load(name) for name in _rule_modules())
ALL_RULES: tuple[Rule, ...] = (PARSE_ERROR, *RULES)
BY_CODE: dict[str, Rule] = {r.code: r for r in ALL_RULES}
