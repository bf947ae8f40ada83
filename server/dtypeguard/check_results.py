"""What `dtypeguard check` keeps of one file's analysis, and its JSON form for the cache.

This module is deliberately light (it imports only the plain data of `dtypeguard.findings`): a
warm `check`, where every file comes from the cache, must not pay for importing the engine and
the rules, which costs more than the whole warm run is allowed to take.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dtypeguard.findings import Finding, FixSpec, Related, Severity, Span


@dataclass(frozen=True)
class Reported:
    """One finding as the CLI shows it: `lines` are the lines its span counts in (the file's,
    or for a notebook the cell's); `cell` is the 1-based notebook cell (None for a script, or
    for a notebook that could not be read at all)."""

    path: Path
    finding: Finding
    lines: tuple[str, ...]
    cell: int | None = None
    related_cells: tuple[int | None, ...] = ()  # 1-based cell of each `finding.related`


@dataclass
class Outcome:
    """One file's analysis as the CLI needs it: its findings, the notes it prints on stderr
    (in order), and the files whose content the result depends on, with the digest of the
    content it saw (`check_cache.text_digest`), so a cached result can be checked against them."""

    reported: list[Reported]
    messages: list[str] = field(default_factory=list)
    dependencies: dict[str, str] = field(default_factory=dict)
    # findings rooted in another file of the project (`CheckResult.elsewhere`), with that file's
    # path and lines: shown there when that file is checked too
    elsewhere: list[Reported] = field(default_factory=list)


def _span(s: Span) -> list[Any]:
    return [s.line, s.col, s.end_line, s.end_col, s.file]


def _unspan(v: Any) -> Span:
    line, col, end_line, end_col, file = v
    return Span(int(line), int(col), int(end_line), int(end_col), str(file))


def _reported_to_json(r: Reported) -> dict[str, Any]:
    return {
        "code": r.finding.code, "severity": r.finding.severity.value, "message": r.finding.message,
        "span": _span(r.finding.span), "rule": r.finding.rule, "note": r.finding.note,
        "related": [[_span(rel.span), rel.message] for rel in r.finding.related],
        "fixes": [[x.kind, x.title, _span(x.span), x.safe, [list(p) for p in x.params]] for x in r.finding.fixes],
        "cell": r.cell, "related_cells": list(r.related_cells),
        # a script's lines are its file's (read back from it); a cell's, or none for a notebook
        # that could not be read (its file's text is not lines a finding counts in), are stored
        "lines": None if r.cell is None and r.lines else list(r.lines),
    }


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """The outcome as JSON data. A script's lines are not stored (they are the file's own, which
    the caller has read anyway); a notebook's are (they are one cell's source)."""
    return {
        "messages": outcome.messages,
        "dependencies": outcome.dependencies,
        "reported": [_reported_to_json(r) for r in outcome.reported],
        "elsewhere": [{**_reported_to_json(r), "path": str(r.path), "lines": list(r.lines)} for r in outcome.elsewhere],
    }


def _reported_from_json(r: Any, path: Path, file_lines: Callable[[], tuple[str, ...]]) -> Reported:
    finding = Finding(
        str(r["code"]), Severity(r["severity"]), str(r["message"]), _unspan(r["span"]), str(r["rule"]),
        tuple(Related(_unspan(s), str(m)) for s, m in r["related"]),
        tuple(FixSpec(str(k), str(t), _unspan(s), bool(safe), tuple((str(a), str(b)) for a, b in params)) for k, t, s, safe, params in r["fixes"]),
        str(r["note"]),
    )
    cell = r["cell"]
    lines = file_lines() if r["lines"] is None else tuple(str(x) for x in r["lines"])  # (a cell's, or another file's)
    return Reported(path, finding, lines, None if cell is None else int(cell), tuple(None if c is None else int(c) for c in r["related_cells"]))


def outcome_from_json(data: Any, path: Path, file_lines: Callable[[], tuple[str, ...]]) -> Outcome:
    """The outcome back from `outcome_to_json`'s data; raises (KeyError, TypeError, ValueError)
    on anything malformed, which the cache treats as a miss."""
    lines_of_file: list[tuple[str, ...]] = []  # split only when a finding needs them

    def lines() -> tuple[str, ...]:
        if not lines_of_file:
            lines_of_file.append(file_lines())
        return lines_of_file[0]

    reported = [_reported_from_json(r, path, lines) for r in data["reported"]]
    elsewhere = [_reported_from_json(r, Path(r["path"]), tuple) for r in data["elsewhere"]]  # (their lines are stored)
    messages = [str(m) for m in data["messages"]]
    dependencies = {str(k): str(v) for k, v in data["dependencies"].items()}
    return Outcome(reported, messages, dependencies, elsewhere)


__all__ = ["Outcome", "Reported", "outcome_from_json", "outcome_to_json"]
