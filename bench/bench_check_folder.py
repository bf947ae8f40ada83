"""Time `dtypeguard check` on a folder of real training code against `ast.parse` and ruff, in one run.

Each round runs, as subprocesses and in this order: a bare `ast.parse` of every file (one
process, the baseline the targets are stated against), `ruff check --no-cache` (default rules
and `--select ALL`), `dtypeguard check --no-cache --jobs 1`, the same with the import memo off
(`DTYPEGUARD_IMPORT_MEMO=0`, see `engine/import_memo.py`), a cold `check` (fresh cache folder,
default jobs), and a warm re-run on that cache. Medians over the rounds are printed with their
ratio to `ast.parse`; timings on a shared machine are noisy, so compare ratios of one run. The
outputs of the five `check` runs must be byte-identical, or the script says so and exits 1.
`--profile` also prints the start-up (python, imports) and where one cold in-process analysis
spends its time (read, parse, interpret with the imported modules, rules, dependencies, output).

Usage: .venv/bin/python bench/bench_check_folder.py FOLDER [--rounds N] [--profile]
(fetch real training repos first, e.g. `git --git-dir=<mirror> archive HEAD | tar -x -C FOLDER/name`)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PARSE = """
import ast, sys, time
from dtypeguard.files import iter_python_files
files = [p for p in iter_python_files([sys.argv[1]]) if p.suffix == ".py"]
for p in files:
    try:
        ast.parse(p.read_bytes())
    except (SyntaxError, ValueError):
        pass
"""


def timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    return time.perf_counter() - started, proc.stdout + proc.stderr


def ruff() -> list[str] | None:
    here = Path(sys.executable).parent / "ruff"
    if here.is_file():
        return [str(here)]
    found = shutil.which("ruff")
    return [found] if found else None


def profile(folder: str) -> None:
    """Where a cold single-process analysis spends its time, by phase, as `check --jobs 1` runs
    it (imported modules' trees shared from file to file, the GC kept off them), and what
    starting the process and importing costs."""
    import gc

    from dtypeguard.analysis import apply_rules
    from dtypeguard.check_cmd import _print_text
    from dtypeguard.check_pool import _dependencies
    from dtypeguard.check_results import Reported
    from dtypeguard.config import Config
    from dtypeguard.engine.imports import shared_across_files, shared_added
    from dtypeguard.engine.interpreter import Interpreter
    from dtypeguard.engine.parse import LineIndex, ParseFailure, decode_source, parse, split_lines
    from dtypeguard.files import iter_python_files

    py = sys.executable
    bare = min(timed([py, "-c", "pass"])[0] for _ in range(3))
    light = min(timed([py, "-c", "import dtypeguard.cli, dtypeguard.check_cmd"])[0] for _ in range(3))
    engine = min(timed([py, "-c", "import dtypeguard.cli, dtypeguard.check_cmd, dtypeguard.check_pool"])[0] for _ in range(3))
    print(f"start-up: python {bare:.3f} s, + imports of a warm run {light - bare:.3f} s, + the engine and rules (cold) {engine - light:.3f} s")
    phases = dict.fromkeys(("read", "parse", "interpret", "rules", "dependencies", "output"), 0.0)
    reported: list[Reported] = []
    files = [p for p in iter_python_files([folder]) if p.suffix == ".py"]
    with shared_across_files():
        for path in files:
            kept = shared_added()
            gc.disable()
            t0 = time.perf_counter()
            text = decode_source(path.read_bytes())
            t1 = time.perf_counter()
            index = LineIndex(text)
            tree = parse(text)
            t2 = time.perf_counter()
            phases["read"] += t1 - t0
            phases["parse"] += t2 - t1
            if isinstance(tree, ParseFailure):
                continue
            interp = Interpreter(tree, index, str(path))
            try:
                interp.run()
            except Exception:  # the CLI reports these as internal errors; here they only count as time
                continue
            t3 = time.perf_counter()
            result = apply_rules(interp.events, interp.facts, index, text, tree, str(path), Config(), interp.entered_from if interp.modules else None)
            result.dependencies, result.tree = dict(interp.dependencies), tree
            t4 = time.perf_counter()
            _dependencies(path, text, result)
            t5 = time.perf_counter()
            reported += [Reported(path, f, tuple(split_lines(text))) for f in result.findings]
            phases["interpret"] += t3 - t2
            phases["rules"] += t4 - t3
            phases["dependencies"] += t5 - t4
            if shared_added() != kept:
                gc.freeze()
            gc.enable()
    gc.unfreeze()
    t6 = time.perf_counter()
    with open(os.devnull, "w") as sink:
        saved, sys.stdout = sys.stdout, sink
        try:
            _print_text(reported, len(files), color=False)
        finally:
            sys.stdout = saved
    phases["output"] = time.perf_counter() - t6
    total = sum(phases.values())
    print(f"cold profile, one process, {len(files)} .py files: " + ", ".join(f"{k} {v:.2f} s ({v / total:.0%})" for k, v in phases.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    if not args.folder or not Path(args.folder).is_dir():
        print(__doc__, file=sys.stderr)
        return 2
    folder = args.folder
    py = sys.executable
    env = dict(os.environ)
    files = sum(1 for _ in Path(folder).rglob("*.py"))
    size = sum(p.stat().st_size for p in Path(folder).rglob("*.py"))
    times: dict[str, list[float]] = {}
    outputs: dict[str, str] = {}
    ruff_cmd = ruff()
    for _ in range(args.rounds):
        runs: list[tuple[str, list[str]]] = [("ast.parse (1 process)", [py, "-c", PARSE, folder])]
        if ruff_cmd:
            runs += [("ruff check", [*ruff_cmd, "check", "--no-cache", "-q", folder]),
                     ("ruff check --select ALL", [*ruff_cmd, "check", "--no-cache", "-q", "--select", "ALL", folder])]
        for name, cmd in runs:
            times.setdefault(name, []).append(timed(cmd, env)[0])
        with tempfile.TemporaryDirectory() as cache:
            check = [py, "-m", "dtypeguard", "check", "--no-color", "--cache-dir", cache, folder]
            for name, cmd, memo in [
                ("check --no-cache --jobs 1", [*check, "--no-cache", "--jobs", "1"], "1"),
                ("  same, import memo off", [*check, "--no-cache", "--jobs", "1"], "0"),
                ("check cold (jobs = cores)", check, "1"),
                ("check warm", check, "1"),
            ]:
                elapsed, out = timed(cmd, {**env, "DTYPEGUARD_IMPORT_MEMO": memo})
                times.setdefault(name, []).append(elapsed)
                outputs.setdefault(name, out)
                if out != outputs[name]:
                    print(f"output of {name!r} changed between rounds", file=sys.stderr)
                    return 1
    base = statistics.median(times["ast.parse (1 process)"])
    print(f"{folder}: {files} .py files, {size / 1e6:.1f} MB; {os.cpu_count()} cores; medians of {args.rounds} rounds (wall, incl. process start)")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<28} {median:6.2f} s  {median / base:5.2f}x ast.parse   (runs: {', '.join(f'{v:.2f}' for v in values)})")
    distinct = {out for name, out in outputs.items() if name.startswith("check")}
    print("  check output identical (no cache / cold / warm, 1 job / all cores, import memo on / off):", "yes" if len(distinct) == 1 else "NO")
    if args.profile:
        profile(folder)
    return 0 if len(distinct) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
