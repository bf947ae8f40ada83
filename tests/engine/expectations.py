"""Read `# expect: DGxxx` markers from sample and corpus files."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_EXPECT = re.compile(r"#\s*expect:\s*((?:DG\d{3}[\s,]*)+)")


def expected(text: str) -> set[tuple[int, str]]:
    out: set[tuple[int, str]] = set()
    for n, line in enumerate(text.splitlines(), 1):
        match = _EXPECT.search(line)
        if match:
            out |= {(n, code) for code in re.findall(r"DG\d{3}", match.group(1))}
    return out


def files(*folders: str) -> list[Path]:
    found: list[Path] = []
    for folder in folders:
        found += sorted((ROOT / folder).glob("*.py"))
    return found
