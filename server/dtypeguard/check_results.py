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


def _span(s: Span) -> list[Any]:
    return [s.line, s.col, s.end_line, s.end_col, s.file]


def _unspan(v: Any) -> Span:
    line, col, end_line, end_col, file = v
    return Span(int(line), int(col), int(end_line), int(end_col), str(file))


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """The outcome as JSON data. A script's lines are not stored (they are the file's own, which
    the caller has read anyway); a notebook's are (they are one cell's source)."""
    return {
        "messages": outcome.messages,
        "dependencies": outcome.dependencies,
        "reported": [
            {
                "code": r.finding.code, "severity": r.finding.severity.value, "message": r.finding.message,
                "span": _span(r.finding.span), "rule": r.finding.rule, "note": r.finding.note,
                "related": [[_span(rel.span), rel.message] for rel in r.finding.related],
                "fixes": [[x.kind, x.title, _span(x.span), x.safe, [list(p) for p in x.params]] for x in r.finding.fixes],
                "cell": r.cell, "related_cells": list(r.related_cells),
                "lines": list(r.lines) if r.cell is not None else None,
            }
            for r in outcome.reported
        ],
    }


def outcome_from_json(data: Any, path: Path, file_lines: Callable[[], tuple[str, ...]]) -> Outcome:
    """The outcome back from `outcome_to_json`'s data; raises (KeyError, TypeError, ValueError)
    on anything malformed, which the cache treats as a miss."""
    reported = []
    lines_of_file: tuple[str, ...] | None = None  # split only when a finding needs them
    for r in data["reported"]:
        finding = Finding(
            str(r["code"]), Severity(r["severity"]), str(r["message"]), _unspan(r["span"]), str(r["rule"]),
            tuple(Related(_unspan(s), str(m)) for s, m in r["related"]),
            tuple(FixSpec(str(k), str(t), _unspan(s), bool(safe), tuple((str(a), str(b)) for a, b in params)) for k, t, s, safe, params in r["fixes"]),
            str(r["note"]),
        )
        cell = r["cell"]
        if r["lines"] is None:
            lines = lines_of_file = file_lines() if lines_of_file is None else lines_of_file
        else:
            lines = tuple(str(x) for x in r["lines"])
        reported.append(Reported(path, finding, lines, None if cell is None else int(cell), tuple(None if c is None else int(c) for c in r["related_cells"])))
    messages = [str(m) for m in data["messages"]]
    dependencies = {str(k): str(v) for k, v in data["dependencies"].items()}
    return Outcome(reported, messages, dependencies)


__all__ = ["Outcome", "Reported", "outcome_from_json", "outcome_to_json"]
