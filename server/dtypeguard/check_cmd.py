"""`dtypeguard check`: findings as text (file:line:col, code, message, the source line), JSON or SARIF.

Exit status: 0 no findings, 1 findings, 2 usage or I/O error. Never writes anything.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dtypeguard import __version__
from dtypeguard.analysis import check_source
from dtypeguard.config import Config, load_config
from dtypeguard.engine.parse import decode_source, split_lines
from dtypeguard.files import iter_python_files
from dtypeguard.model import Finding, Severity
from dtypeguard.notebook import check_notebook, is_notebook
from dtypeguard.rules import ALL_RULES, BY_CODE

MAX_BYTES = 20 * 1024 * 1024


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("--select", default="", help="comma-separated rule codes to report (default: all)")
    parser.add_argument("--ignore", default="", help="comma-separated rule codes to skip")
    parser.add_argument("--no-color", action="store_true", help="plain text output")


def config_for(path: Path, args: argparse.Namespace, reported: set[str] | None = None) -> Config:
    """The file's configuration with the command line on top; problems are printed once."""
    config = load_config(path).merged({"select": args.select, "ignore": args.ignore})
    if reported is not None:
        for problem in config.problems:
            if problem not in reported:
                reported.add(problem)
                print(f"dtypeguard: configuration: {problem}", file=sys.stderr)
    return config


def read_source(path: Path) -> str:
    """Read a file as Python source; raises ValueError with a clear reason when it is not."""
    data = path.read_bytes()
    if len(data) > MAX_BYTES:
        raise ValueError(f"skipped: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        return decode_source(data)
    except UnicodeDecodeError as exc:
        raise ValueError(f"skipped: not UTF-8 text (byte {exc.start})") from exc


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


def check_file(path: Path, text: str, config: Config) -> list[Reported]:
    """The findings of one file, a script or a notebook."""
    if is_notebook(str(path)):
        nb = check_notebook(text, str(path), config)
        if nb.error and not nb.findings:
            print(f"dtypeguard: {path}: {nb.error}", file=sys.stderr)
        if nb.result is not None and nb.result.internal_error:
            print(f"dtypeguard: {path}: internal error, notebook not fully analysed: {nb.result.internal_error}", file=sys.stderr)
        if nb.order_notes:
            cells = ", ".join(str(c + 1) for c in sorted(nb.order_notes))
            print(f"dtypeguard: {path}: the saved execution counts disagree with the cell order (cells {cells}); analysed top to bottom", file=sys.stderr)
        sources = nb.script.sources if nb.script is not None else {}
        return [
            Reported(
                path, f.finding, tuple(split_lines(sources[f.cell])) if f.cell in sources else (),
                f.cell + 1 if f.cell >= 0 else None, tuple(None if c is None else c + 1 for c in f.related_cells),
            )
            for f in nb.findings
        ]
    result = check_source(text, str(path), config)
    if result.internal_error:
        print(f"dtypeguard: {path}: internal error, file not fully analysed: {result.internal_error}", file=sys.stderr)
    lines = tuple(split_lines(text))
    return [Reported(path, f, lines) for f in result.findings]


def run(args: argparse.Namespace) -> int:
    reported: list[Reported] = []
    errors = 0
    try:
        files = list(iter_python_files(args.paths))
    except FileNotFoundError as exc:
        print(f"dtypeguard: no such file or folder: {exc}", file=sys.stderr)
        return 2
    reported_problems: set[str] = set()
    for path in files:
        try:
            text = read_source(path)
        except (OSError, ValueError) as exc:
            print(f"dtypeguard: {path}: {exc}", file=sys.stderr)
            errors += 1
            continue
        config = config_for(path, args, reported_problems)
        reported += check_file(path, text, config)
    total = len(reported)
    checked = len(files) - errors
    if args.format == "json":
        print(json.dumps([_as_json(r) for r in reported], indent=2))
    elif args.format == "sarif":
        print(json.dumps(_sarif(reported), indent=2))
    else:
        _print_text(reported, checked, color=not args.no_color and sys.stdout.isatty())
    if errors and not total:
        return 2
    return 1 if total else 0


def _as_json(r: Reported) -> dict[str, Any]:
    f = r.finding
    out: dict[str, Any] = {
        "path": str(r.path),
        "line": f.span.line,
        "column": f.span.col + 1,
        "end_line": f.span.end_line,
        "end_column": f.span.end_col + 1,
        "code": f.code,
        "rule": f.rule,
        "severity": f.severity.value,
        "message": f.message,
        "related": [
            {"line": rel.span.line, "column": rel.span.col + 1, "message": rel.message, **({"path": rel.span.file} if rel.span.file else {})}
            for rel in f.related
        ],
        "fixes": [{"title": x.title, "safe": x.safe} for x in f.fixes],
    }
    if is_notebook(str(r.path)):
        out["cell"] = r.cell  # 1-based among all cells; line/column count inside that cell
        for entry, cell in zip(out["related"], r.related_cells, strict=False):
            entry["cell"] = cell
    return out


_COLORS = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFORMATION: "36", Severity.HINT: "2"}


def _print_text(reported: list[Reported], files: int, color: bool) -> None:
    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color else text

    counts: dict[str, int] = {}
    for r in reported:
        f, lines = r.finding, r.lines
        counts[f.code] = counts.get(f.code, 0) + 1
        where = f"{r.path}:cell {r.cell}:" if r.cell is not None else f"{r.path}:"
        head = f"{where}{f.span.line}:{f.span.col + 1}: {paint(f.code, _COLORS[f.severity])} [{f.severity.value}] {f.message}"
        print(head)
        if 1 <= f.span.line <= len(lines):
            src = lines[f.span.line - 1].rstrip()
            print(f"    {f.span.line:>4} | {src}")
            width = (f.span.end_col if f.span.end_line == f.span.line else len(src)) - f.span.col
            print(f"         | {' ' * f.span.col}{paint('^' * max(width, 1), _COLORS[f.severity])}")
        for k, rel in enumerate(f.related[:3]):
            rel_cell = r.related_cells[k] if k < len(r.related_cells) else None
            where = f"line {rel.span.line} of cell {rel_cell}" if rel_cell is not None else f"line {rel.span.line}"
            if rel.span.file:
                where = f"{_shown(rel.span.file)}:{rel.span.line}"  # in a file this one imports
            print(f"         = {where}: {rel.message}")
        safe = [x for x in f.fixes if x.safe]
        if safe:
            print(f"         fix: {safe[0].title} (dtypeguard fix)")
        print()
    total = len(reported)
    if total:
        summary = ", ".join(f"{code} x{n}" for code, n in sorted(counts.items()))
        print(f"Found {total} finding{'s' * (total != 1)} in {files} file{'s' * (files != 1)} ({summary}).")
    else:
        print(f"No dtype/device hazards found in {files} file{'s' * (files != 1)}.")


def _shown(path: str) -> str:
    """Another file's path as the user gave theirs: relative to the working folder when inside it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def _sarif_uri(path: Path) -> str:
    """A URI reference for SARIF's artifactLocation: relative paths stay relative (code scanning
    resolves them against the checkout), absolute ones become file: URIs, both percent-encoded."""
    if path.is_absolute():
        return path.as_uri()
    return urllib.parse.quote(path.as_posix())


def _sarif(reported: list[Reported]) -> dict[str, Any]:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}
    return {
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "dtypeguard",
                        "version": __version__,
                        "rules": [
                            {"id": r.code, "name": r.name, "shortDescription": {"text": r.summary}, "fullDescription": {"text": r.explanation}, "helpUri": r.url}
                            for r in ALL_RULES
                        ],
                    }
                },
                "results": [_sarif_result(r, level) for r in reported],
            }
        ],
    }


def _sarif_result(r: Reported, level: dict[Severity, str]) -> dict[str, Any]:
    f = r.finding
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": {"uri": _sarif_uri(r.path)},
            "region": {"startLine": f.span.line, "startColumn": f.span.col + 1, "endLine": f.span.end_line, "endColumn": f.span.end_col + 1},
        }
    }
    out: dict[str, Any] = {"ruleId": f.code, "level": level[f.severity], "message": {"text": f.message}, "locations": [location]}
    related = [
        {"id": k, "message": {"text": rel.message}, "physicalLocation": {
            "artifactLocation": {"uri": _sarif_uri(Path(rel.span.file) if rel.span.file else r.path)},
            "region": {"startLine": rel.span.line, "startColumn": rel.span.col + 1, "endLine": rel.span.end_line, "endColumn": rel.span.end_col + 1},
        }}
        for k, rel in enumerate(f.related)
    ]
    if related and r.cell is None:
        out["relatedLocations"] = related
    if r.cell is not None:
        # SARIF has no notebook cells: the region counts inside the cell named here
        location["logicalLocations"] = [{"name": f"cell {r.cell}", "kind": "notebookCell"}]
        out["properties"] = {"cell": r.cell}
        out["message"]["text"] = f"cell {r.cell}: {f.message}"
    return out


__all__ = ["BY_CODE", "Reported", "add_arguments", "check_file", "read_source", "run"]
