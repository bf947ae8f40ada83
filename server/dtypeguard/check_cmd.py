"""`dtypeguard check`: findings as text (file:line:col, code, message, the source line), JSON or SARIF.

Exit status: 0 no findings, 1 findings, 2 usage or I/O error. Never writes anything but its
cache (`dtypeguard.check_cache`; `--no-cache` not even that).

Unchanged files come from the cache; the others are analysed across processes
(`dtypeguard.check_pool`, imported only when there is something to analyse, since importing
the engine costs more than a whole warm run). Everything is printed afterwards, in the order of
the files, so the output is the same byte for byte with or without the cache and for any
`--jobs`.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import urllib.parse
from dataclasses import replace
from pathlib import Path
from typing import Any

from dtypeguard import __version__
from dtypeguard.check_cache import Cache, bytes_digest, signature
from dtypeguard.check_results import Outcome, Reported
from dtypeguard.config import Config, config_of, load_config
from dtypeguard.engine.parse import decode_source, split_lines
from dtypeguard.files import iter_python_files
from dtypeguard.findings import CALL_RUNS_IT, Severity, Span, in_its_file

MAX_BYTES = 20 * 1024 * 1024
NOTEBOOK_SUFFIX = ".ipynb"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    parser.add_argument("--select", default="", help="comma-separated rule codes to report (default: all)")
    parser.add_argument("--ignore", default="", help="comma-separated rule codes to skip")
    parser.add_argument("--no-color", action="store_true", help="plain text output")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    parser.add_argument("--cache-dir", default=None, metavar="DIR", help="cache folder (default: $DTYPEGUARD_CACHE_DIR or ./.dtypeguard_cache)")
    parser.add_argument("--jobs", "-j", type=_jobs, default=0, metavar="N", help="processes analysing files (default: one per core)")


def _jobs(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 (one per core) or more")
    return n


def config_for(path: Path, args: argparse.Namespace, reported: set[str] | None = None) -> Config:
    """The file's configuration with the command line on top; problems are printed once."""
    config = _config(path, args)
    if reported is not None:
        for problem in _new_problems(config, reported):
            print(problem, file=sys.stderr)
    return config


def _config(path: Path, args: argparse.Namespace) -> Config:
    return load_config(path).merged({"select": args.select, "ignore": args.ignore})


def _new_problems(config: Config, reported: set[str]) -> list[str]:
    out = []
    for problem in config.problems:
        if problem not in reported:
            reported.add(problem)
            out.append(f"dtypeguard: configuration: {problem}")
    return out


def read_source(path: Path) -> str:
    """Read a file as Python source; raises ValueError with a clear reason when it is not."""
    return _decode(path.read_bytes())


def _read(path: Path) -> bytes:
    """The file's bytes; ValueError when it is too large to be analysed (not read at all)."""
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"skipped: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    return path.read_bytes()


def _decode(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise ValueError(f"skipped: larger than {MAX_BYTES // (1024 * 1024)} MiB")
    try:
        return decode_source(data)
    except UnicodeDecodeError as exc:
        raise ValueError(f"skipped: not UTF-8 text (byte {exc.start})") from exc


def _lines_of(path: Path, data: bytes | None) -> tuple[str, ...]:
    """A cached finding's file lines: from the bytes read this run, else read now (a file that
    can no longer be read or decoded has none; its findings print without the source line)."""
    try:
        return tuple(split_lines(_decode(data if data is not None else path.read_bytes())))
    except (OSError, ValueError):
        return ()


def _is_notebook(path: Path) -> bool:
    return str(path).lower().endswith(NOTEBOOK_SUFFIX)  # as `notebook.is_notebook`, without importing it


def run(args: argparse.Namespace) -> int:
    try:
        files = list(iter_python_files(args.paths))
    except FileNotFoundError as exc:
        print(f"dtypeguard: no such file or folder: {exc}", file=sys.stderr)
        return 2
    run_id = repr((sorted(str(Path(p).resolve()) for p in args.paths), args.select, args.ignore))
    cache = None if args.no_cache else Cache(Cache.location(args.cache_dir), run_id)
    reported_problems: set[str] = set()
    notes: list[list[str]] = []  # per file: what is printed on stderr before its own messages
    outcomes: list[Outcome | None] = []
    pending: list[tuple[int, Path, str, Config, str]] = []  # (file number, path, text, config, key)
    errors = 0
    configs: dict[Path, Config] = {}
    folders = _Folders()
    for path in files:
        absolute = folders.resolved(path)
        # a file the cache saw unchanged (same size, times and inode) is not even read: its
        # lines are read only to print a finding (`check_cache`, "the pack")
        digest = cache.known_digest(absolute) if cache is not None else None
        data: bytes | None = None
        if digest is None:
            sig = signature(absolute) if cache is not None else None
            try:
                data = _read(path)
            except (OSError, ValueError) as exc:
                notes.append([f"dtypeguard: {path}: {exc}"])
                outcomes.append(None)
                errors += 1
                continue
            if cache is not None:
                digest = bytes_digest(data)
                cache.saw(absolute, sig, digest)
        if absolute.parent not in configs:  # a file's configuration is its folder's (the nearest pyproject)
            configs[absolute.parent] = config_of(folders.pyproject(absolute.parent)).merged({"select": args.select, "ignore": args.ignore})
        config = configs[absolute.parent]
        problems = _new_problems(config, reported_problems)
        key = cache.key(path, absolute, digest, config) if cache is not None and digest is not None else ""
        hit = cache.get(path, key, functools.partial(_lines_of, path, data)) if cache is not None else None
        if hit is None:
            try:
                text = _decode(data if data is not None else _read(path))
            except (OSError, ValueError) as exc:
                notes.append([*problems, f"dtypeguard: {path}: {exc}"])
                outcomes.append(None)
                errors += 1
                continue
            pending.append((len(outcomes), path, text, config, key))
        notes.append(problems)
        outcomes.append(hit)
    if pending:
        from dtypeguard.check_pool import analyse_all, default_jobs

        fresh = analyse_all([(p, t, c) for _, p, t, c, _ in pending], args.jobs or default_jobs())
        for (number, _, _, _, key), new in zip(pending, fresh, strict=True):
            outcomes[number] = new
            if cache is not None:
                cache.put(key, new)
    if cache is not None:
        cache.close()
    reported: list[Reported] = []
    for before, outcome in zip(notes, outcomes, strict=True):
        for line in before + (outcome.messages if outcome is not None else []):
            print(line, file=sys.stderr)
        if outcome is not None:
            reported += outcome.reported
    reported = _with_roots_elsewhere(files, outcomes, reported, folders)
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


class _Folders:
    """Resolved paths and nearest pyproject.toml files, each folder looked up once per run: on a
    warm run from the cache, resolving every file and walking up from every folder was a third
    of the time."""

    def __init__(self) -> None:
        self._files: dict[Path, Path] = {}
        self._folders: dict[str, str] = {}
        self._pyprojects: dict[Path, Path | None] = {}

    def resolved(self, path: Path) -> Path:
        """`path.resolve()`, with the folder resolved once (a symlinked file itself is resolved),
        memoised: it is asked again for the files that show findings rooted elsewhere."""
        known = self._files.get(path)
        if known is not None:
            return known
        if os.path.islink(path):
            out = path.resolve()
        else:
            head, name = os.path.split(path)
            folder = self._folders.get(head)
            if folder is None:
                folder = self._folders[head] = os.path.realpath(head or ".")
            out = Path(os.path.join(folder, name))
        self._files[path] = out
        return out

    def pyproject(self, folder: Path) -> Path | None:
        """`config.find_pyproject` of a resolved folder, sharing the walk up with its siblings."""
        if folder in self._pyprojects:
            return self._pyprojects[folder]
        candidate = folder / "pyproject.toml"
        found = candidate if candidate.is_file() else (None if folder.parent == folder else self.pyproject(folder.parent))
        self._pyprojects[folder] = found
        return found


def _with_roots_elsewhere(files: list[Path], outcomes: list[Outcome | None], reported: list[Reported], folders: _Folders) -> list[Reported]:
    """Findings whose root is in another checked file (the `.double()` in `models.py` that
    `train.py` trips on) are shown in that file too, at the root, where the fix goes; once per
    place and rule, however many files run it. Files not checked are not reported on."""
    if not any(outcome is not None and outcome.elsewhere for outcome in outcomes):
        return reported
    checked = {folders.resolved(p): p for p in files}
    own = {(r.path, r.finding.span, r.finding.code) for r in reported}  # (what that file reports itself)
    roots: dict[tuple[Path, Span, str], Reported] = {}
    for outcome in outcomes:
        for r in outcome.elsewhere if outcome is not None else ():
            shown = checked.get(r.path.resolve())
            if shown is not None:
                finding = in_its_file(r.finding, str(r.path))
                if (shown, finding.span, finding.code) not in own:
                    roots.setdefault((shown, finding.span, finding.code), replace(r, path=shown, finding=finding))
    if not roots:
        return reported
    order = {p: i for i, p in enumerate(files)}
    merged = reported + list(roots.values())
    return sorted(merged, key=lambda r: (order.get(r.path, len(order)), r.cell or 0, r.finding.span.line, r.finding.span.col))


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
    if _is_notebook(r.path):
        out["cell"] = r.cell  # 1-based among all cells; line/column count inside that cell
        for entry, cell in zip(out["related"], r.related_cells, strict=False):
            entry["cell"] = cell
    return out


_COLORS = {Severity.ERROR: "31", Severity.WARNING: "33", Severity.INFORMATION: "36", Severity.HINT: "2"}


RELATED_SHOWN = 8  # related places printed under a finding in the text output


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
        # the first three places, and every other place where it fails (one finding holds each
        # line a root makes fail: a second loss call, a second load of the checkpoint)
        shown = [k for k, rel in enumerate(f.related) if k < 3 or rel.fails or rel.message == CALL_RUNS_IT][:RELATED_SHOWN]
        for k in shown:
            rel = f.related[k]
            rel_cell = r.related_cells[k] if k < len(r.related_cells) else None
            where = f"line {rel.span.line} of cell {rel_cell}" if rel_cell is not None else f"line {rel.span.line}"
            if rel.span.file:
                where = f"{_shown(rel.span.file)}:{rel.span.line}"  # in a file this one imports
            print(f"         = {where}: {rel.message}")
        if len(f.related) > len(shown):
            print(f"         = ... {len(f.related) - len(shown)} more place{'s' * (len(f.related) - len(shown) != 1)} (--format json lists every one)")
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
    from dtypeguard.rules import ALL_RULES  # the rules' descriptions; only SARIF needs them

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
                            {"id": r.code, "name": r.name, "shortDescription": {"text": r.summary}, "fullDescription": {"text": r.explanation},
                             "help": {"text": f"{r.explanation} (`dtypeguard rules {r.code}`)"}}
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


__all__ = ["Reported", "add_arguments", "config_for", "read_source", "run"]
