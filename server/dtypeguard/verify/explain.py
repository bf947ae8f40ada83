"""Which static rule a runtime error belongs to: a table of real PyTorch 2.13 messages.

When a verified script fails with an error that a rule describes, the user should get the
rule's explanation and quick fix, not only the traceback. The table is built from the rule
registry: each rule module lists the messages it explains (`Rule.errors`, each with the
recorded message it was written from, in shared `docs/hazards.md` or under tests/) and what to
do about them (`Rule.hint`). One row per message shape, first match wins: every rule's
specific rows in registry order, then the `general` ones (DG004's dtype mismatches, which
DG005's integer and DG017's autocast wordings refine), then the rows below that name no rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dtypeguard.rules import RULES
from dtypeguard.rules.base import ErrorPattern

RULE_NAMES: dict[str, str] = {rule.code: rule.name for rule in RULES}
HINTS: dict[str, str] = {rule.code: rule.hint for rule in RULES if rule.hint}


@dataclass(frozen=True)
class Row:
    """One row of the table. `code` None means: no rule, but the hint still helps."""

    code: str | None
    pattern: ErrorPattern


# errors no rule describes, with a clear reason all the same
NO_RULE: tuple[ErrorPattern, ...] = (
    # CUDA-only code run with --device cpu
    ErrorPattern(
        r"Torch not compiled with CUDA enabled|No CUDA GPUs are available|Found no NVIDIA driver",
        "Torch not compiled with CUDA enabled",
        "tests/verify/test_verify_explain.py",
        hint="the script uses CUDA unconditionally; pick the device with "
        "torch.device('cuda' if torch.cuda.is_available() else 'cpu') and move tensors with "
        ".to(device), or verify with --device cuda on a GPU machine.",
    ),
)

PATTERNS: tuple[Row, ...] = (
    *(Row(rule.code, p) for rule in RULES for p in rule.errors if not p.general),
    *(Row(rule.code, p) for rule in RULES for p in rule.errors if p.general),
    *(Row(None, p) for p in NO_RULE),
)


@dataclass(frozen=True)
class Explanation:
    """The rule (if any) an error belongs to, and what to do about it."""

    code: str | None
    name: str | None
    hint: str

    def text(self) -> str:
        if self.code is None:
            return self.hint
        return f"this is {self.code} ({self.name}): {self.hint}"


_COMPILED: tuple[tuple[Row, re.Pattern[str]], ...] = tuple(
    (row, re.compile(row.pattern.regex)) for row in PATTERNS
)


def explain(
    error_type: str | None,
    message: str | None,
    traceback: str | None = None,
    source: str | None = None,
) -> Explanation | None:
    """The first table row whose conditions all hold, as an Explanation."""
    if not message:
        return None
    for row, regex in _COMPILED:
        p = row.pattern
        if p.error_types and error_type not in p.error_types:
            continue
        if p.source_contains is not None and p.source_contains not in (source or ""):
            continue
        if p.traceback_contains is not None and p.traceback_contains not in (traceback or ""):
            continue
        if regex.search(message):
            hint = p.hint or (HINTS.get(row.code, "") if row.code else "")
            name = RULE_NAMES.get(row.code) if row.code else None
            return Explanation(row.code, name, hint)
    return None
