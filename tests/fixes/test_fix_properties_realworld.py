"""Issue 13, fix properties on code nobody here wrote: for every script of every real-world set
(broken and correct), `fix` gives code that parses, that a second `fix` leaves as it is, and
that raises no finding of a kind the original did not have. (Whether the fixed scripts run is
`bench/fix_then_run.py`'s measure: it runs them, minutes per set.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from dtypeguard.fixes.api import fix_all

ROOT = Path(__file__).resolve().parents[2]
SETS = sorted(p for p in (ROOT / "tests").glob("realworld*") if (p / "broken").is_dir())


@pytest.mark.parametrize("folder", SETS, ids=lambda p: p.name)
def test_fixing_a_real_world_set_parses_is_idempotent_and_adds_no_finding(folder: Path) -> None:
    scripts = sorted((folder / "broken").rglob("*.py")) + sorted((folder / "correct").rglob("*.py"))  # (project folders' files too)
    assert scripts
    problems: list[str] = []
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        fixed = fix_all(text, str(path)).text
        try:
            ast.parse(fixed)
        except SyntaxError as exc:
            problems.append(f"{path.name}: the fixed code does not parse ({exc})")
            continue
        if fix_all(fixed, str(path)).text != fixed:
            problems.append(f"{path.name}: a second fix changes it again")
        new = {f.code for f in check_source(fixed, str(path)).findings} - {f.code for f in check_source(text, str(path)).findings}
        if new:
            problems.append(f"{path.name}: the fix adds {sorted(new)}")
    assert problems == [], "\n".join(problems)
