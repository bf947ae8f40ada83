"""Analysing the files `dtypeguard check` could not take from its cache, across processes.

The engine is pure Python and holds the GIL, so only processes give more than one core. On
Linux the pool forks: the workers inherit the engine already imported by the parent, so a
worker costs a few milliseconds instead of the ~0.3 s of importing the engine and the rules
again. Files are handed out in runs of neighbouring files (a package's files import the same
modules, whose trees a worker keeps: `engine.imports.shared_across_files`), several runs per
worker, the largest first, so one big run at the end does not leave the other cores idle;
results come back by index, so the output order is the file order whatever finishes first. Few files are analysed in-process: forking would cost
more than it saves.

Importing this module imports the engine and the rules: `check_cmd` imports it only when a
file has to be analysed.
"""

from __future__ import annotations

import ast
import gc
import multiprocessing
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from dtypeguard.analysis import CheckResult, check_source
from dtypeguard.check_cache import dependency_digests
from dtypeguard.check_results import Outcome, Reported
from dtypeguard.config import Config
from dtypeguard.engine.imports import resolve, shared_across_files, shared_added, shared_tree
from dtypeguard.engine.parse import split_lines
from dtypeguard.notebook import check_notebook, is_notebook

MIN_FILES_PER_WORKER = 4  # below this, a worker's start-up and the pickling outweigh the gain
CHUNKS_PER_WORKER = 8  # runs of neighbouring files handed to each worker

Job = tuple[Path, str, Config]  # (path as given, its text, its configuration)


def default_jobs() -> int:
    """The cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def analyse_file(path: Path, text: str, config: Config) -> Outcome:
    """The findings of one file, a script or a notebook, with the stderr notes the CLI prints
    about it and the files its result depends on."""
    messages: list[str] = []
    if is_notebook(str(path)):
        nb = check_notebook(text, str(path), config)
        if nb.error and not nb.findings:
            messages.append(f"dtypeguard: {path}: {nb.error}")
        if nb.result is not None and nb.result.internal_error:
            messages.append(f"dtypeguard: {path}: internal error, notebook not fully analysed: {nb.result.internal_error}")
        if nb.order_notes:
            cells = ", ".join(str(c + 1) for c in sorted(nb.order_notes))
            messages.append(f"dtypeguard: {path}: the saved execution counts disagree with the cell order (cells {cells}); analysed top to bottom")
        sources = nb.script.sources if nb.script is not None else {}
        reported = [
            Reported(
                path, f.finding, tuple(split_lines(sources[f.cell])) if f.cell in sources else (),
                f.cell + 1 if f.cell >= 0 else None, tuple(None if c is None else c + 1 for c in f.related_cells),
            )
            for f in nb.findings
        ]
        script = nb.script.text if nb.script is not None else ""
        return Outcome(reported, messages, _dependencies(path, script, nb.result))
    result = check_source(text, str(path), config)
    if result.internal_error:
        messages.append(f"dtypeguard: {path}: internal error, file not fully analysed: {result.internal_error}")
    lines = tuple(split_lines(text))
    theirs: dict[str, tuple[str, ...]] = {}  # another file's lines, from the text the analysis read
    elsewhere = []
    for f in result.elsewhere:
        if f.span.file not in theirs:
            theirs[f.span.file] = tuple(split_lines(result.dependencies.get(f.span.file, "")))
        elsewhere.append(Reported(Path(f.span.file), f, theirs[f.span.file]))
    return Outcome([Reported(path, f, lines) for f in result.findings], messages, _dependencies(path, text, result), elsewhere)


def _dependencies(path: Path, text: str, result: CheckResult | None) -> dict[str, str]:
    """The files the result depends on, with digests: the project modules the engine ran, and
    also every project module an import of the file or of those modules names even when the
    engine could not use it (unparsable, too large), since fixing that module changes the result.

    This is the hook cross-module analysis feeds: a cached entry is valid only while every file
    listed here still has the digest recorded."""
    ran = dict(result.dependencies) if result is not None else {}
    named = _imported_files(str(path), text, result.tree if result is not None else None)
    for importer, source in ran.items():
        key = (importer, source)
        if key not in _named:  # a module many files import is read once per process
            _named[key] = _imported_files(importer, source, shared_tree(importer, source))
        named = named | _named[key]
    return dependency_digests(ran, named)


_named: dict[tuple[str, str], frozenset[str]] = {}  # (module, its text) -> the project files its imports name


def _imported_files(importer: str, source: str, tree: ast.Module | None = None) -> frozenset[str]:
    """The project files the import statements of `source` (parsed: `tree`) name."""
    if tree is None:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return frozenset()
    found: set[str] = set()
    for node in _import_statements(tree):
        targets: list[tuple[str | None, int, str | None]] = []
        if isinstance(node, ast.Import):
            targets = [(alias.name, 0, None) for alias in node.names]
        else:
            targets = [(node.module, node.level, None)] if node.module else []
            targets += [(node.module, node.level, alias.name) for alias in node.names if alias.name != "*"]
        for module, level, name in targets:
            try:
                hit = resolve(importer, module, level, name)
            except (OSError, ValueError):
                hit = None
            if hit is not None:
                found.add(hit)
    return frozenset(found)


_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")  # where statements hold statements


def _import_statements(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth: only statement lists are walked (an import is a
    statement, and no expression holds one), which is a small part of the tree."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        for name in _BODIES:
            inner = getattr(node, name, None)
            if inner:
                stack += inner


def _work(job: tuple[int, Path, str, Config]) -> tuple[int, Outcome]:
    index, path, text, config = job
    return index, _analyse_shared(path, text, config)


def _analyse_shared(path: Path, text: str, config: Config) -> Outcome:
    """`analyse_file` while imported modules' trees are kept from file to file: once new ones
    are kept, they are moved out of the cyclic GC's sight (`gc.freeze`), or collections would
    walk their millions of nodes again and again (a tenth of the run's time). Not collected
    first: that walk is what is saved, and the engine leaves next to no cyclic garbage (a
    collection after analysing a package finds none), so freezing keeps nothing alive."""
    kept, enabled = shared_added(), gc.isenabled()
    gc.disable()  # (as `check_source` does, and also while the dependencies are listed)
    try:
        return analyse_file(path, text, config)
    finally:
        if shared_added() != kept:
            gc.freeze()
        if enabled:
            gc.enable()


def analyse_all(jobs: Sequence[Job], workers: int) -> list[Outcome]:
    """Each job's outcome, in the jobs' order, analysed by up to `workers` processes. The files
    do not change meanwhile, so import resolutions and imported modules' trees are shared from
    one file to the next (`engine.imports.shared_across_files`)."""
    _named.clear()
    try:
        with shared_across_files():
            return _analyse_all(jobs, workers)
    finally:
        _named.clear()
        gc.unfreeze()  # (in-process: what was kept can be collected again)


def _analyse_all(jobs: Sequence[Job], workers: int) -> list[Outcome]:
    workers = min(workers, len(jobs) // MIN_FILES_PER_WORKER)
    if workers <= 1:
        return [_analyse_shared(*job) for job in jobs]
    # runs of neighbouring files (one package: the same imports, which a worker then keeps),
    # several per worker, the largest runs first so the last ones finish together
    size = max(1, len(jobs) // (workers * CHUNKS_PER_WORKER))
    runs = [list(range(k, min(k + size, len(jobs)))) for k in range(0, len(jobs), size)]
    runs.sort(key=lambda run: -sum(len(jobs[k][1]) for k in run))
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods and sys.platform != "darwin" else "spawn")
    outcomes: list[Outcome | None] = [None] * len(jobs)
    with context.Pool(workers) as pool:
        for done in pool.imap_unordered(_work_run, [[(k, *jobs[k]) for k in run] for run in runs], chunksize=1):
            for index, outcome in done:
                outcomes[index] = outcome
    return [o for o in outcomes if o is not None]


def _work_run(run: list[tuple[int, Path, str, Config]]) -> list[tuple[int, Outcome]]:
    return [_work(job) for job in run]


__all__ = ["Job", "analyse_all", "analyse_file", "default_jobs"]
