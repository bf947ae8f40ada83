"""`dtypeguard check`: findings as text (file:line:col, code, message, the source line), JSON or SARIF.

Exit status: 0 no findings, 1 findings, 2 usage or I/O error. Never writes anything.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.parse
from pathlib import Path
from typing import Any

from dtypeguard import __version__
from dtypeguard.analysis import check_source
from dtypeguard.config import Config, load_config
from dtypeguard.engine.parse import decode_source, split_lines
from dtypeguard.files import iter_python_files
from dtypeguard.model import Finding, Severity
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


def run(args: argparse.Namespace) -> int:
    results: list[tuple[Path, str, list[Finding]]] = []
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
        result = check_source(text, str(path), config)
        if result.internal_error:
            print(f"dtypeguard: {path}: internal error, file not fully analysed: {result.internal_error}", file=sys.stderr)
        results.append((path, text, result.findings))
    total = sum(len(f) for _, _, f in results)
    if args.format == "json":
        print(json.dumps([_as_json(p, f) for p, _, fs in results for f in fs], indent=2))
    elif args.format == "sarif":
        print(json.dumps(_sarif(results), indent=2))
    else:
        _print_text(results, color=not args.no_color and sys.stdout.isatty())
    if errors and not total:
        return 2
    return 1 if total else 0


def _as_json(path: Path, f: Finding) -> dict[str, Any]:
    return {
        "path": str(path),
        "line": f.span.line,
        "column": f.span.col + 1,
        "end_line": f.span.end_line,
        "end_column": f.span.end_col + 1,
        "code": f.code,
        "rule": f.rule,
        "severity": f.severity.value,
        "message": f.message,
        "related": [{"line": r.span.line, "column": r.span.col + 1, "message": r.message} for r in f.related],
        "fixes": [{"title": x.title, "safe": x.safe} for x in f.fixes],
    }


_COLORS = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFORMATION: "36", Severity.HINT: "2"}


def _print_text(results: list[tuple[Path, str, list[Finding]]], color: bool) -> None:
    def paint(text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if color else text

    total = 0
    counts: dict[str, int] = {}
    for path, text, findings in results:
        lines = split_lines(text)
        for f in findings:
            total += 1
            counts[f.code] = counts.get(f.code, 0) + 1
            head = f"{path}:{f.span.line}:{f.span.col + 1}: {paint(f.code, _COLORS[f.severity])} [{f.severity.value}] {f.message}"
            print(head)
            if 1 <= f.span.line <= len(lines):
                src = lines[f.span.line - 1].rstrip()
                print(f"    {f.span.line:>4} | {src}")
                width = (f.span.end_col if f.span.end_line == f.span.line else len(src)) - f.span.col
                print(f"         | {' ' * f.span.col}{paint('^' * max(width, 1), _COLORS[f.severity])}")
            for r in f.related[:3]:
                print(f"         = line {r.span.line}: {r.message}")
            safe = [x for x in f.fixes if x.safe]
            if safe:
                print(f"         fix: {safe[0].title} (dtypeguard fix)")
            print()
    files = len(results)
    if total:
        summary = ", ".join(f"{code} x{n}" for code, n in sorted(counts.items()))
        print(f"Found {total} finding{'s' * (total != 1)} in {files} file{'s' * (files != 1)} ({summary}).")
    else:
        print(f"No dtype/device hazards found in {files} file{'s' * (files != 1)}.")


def _sarif_uri(path: Path) -> str:
    """A URI reference for SARIF's artifactLocation: relative paths stay relative (code scanning
    resolves them against the checkout), absolute ones become file: URIs, both percent-encoded."""
    if path.is_absolute():
        return path.as_uri()
    return urllib.parse.quote(path.as_posix())


def _sarif(results: list[tuple[Path, str, list[Finding]]]) -> dict[str, Any]:
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
                "results": [
                    {
                        "ruleId": f.code,
                        "level": level[f.severity],
                        "message": {"text": f.message},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": _sarif_uri(path)},
                                    "region": {"startLine": f.span.line, "startColumn": f.span.col + 1, "endLine": f.span.end_line, "endColumn": f.span.end_col + 1},
                                }
                            }
                        ],
                    }
                    for path, _, fs in results
                    for f in fs
                ],
            }
        ],
    }


__all__ = ["BY_CODE", "add_arguments", "read_source", "run"]
