"""The tools every held-out real-world set shares (realworld6, 7, 8 and realworld_lightning):
one copy, so a fix to how a set is checked reaches every set.

    python tests/realworldN/check.py [--python PY] [-v]       re-run the set, verify every header
    python tests/realworld/setcheck.py fill SET_DIR [FILE ...]  fill headers from markers and a run
    python tests/realworld/setcheck.py readme SET_DIR           print README_h.md's tables

A set's own `check.py` names its silent outcomes (what a run that exits 0 must still show) and
calls `check`. Scripts are run, never imported: they are data, not tests.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

KEYS = ["source", "reported-error", "outcome", "root-cause", "expect"]
EXPECT_OK = {f"DG{i:03d}" for i in range(1, 19)} | {"none"}
PY = "/work/main/.venv/bin/python"
# a silent outcome: a regex on stdout+stderr, and an optional test of its match
Silent = dict[str, tuple[str, Callable[[re.Match[str]], bool] | None]]


def parse_header(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    errs = []
    if not lines[0].startswith('"""') or len(lines[0].strip()) <= 3:
        errs.append("line 1 must be a one-line description opening the docstring")
    hdr = {}
    for i, key in enumerate(KEYS, start=2):
        m = re.match(rf"^{re.escape(key)}: (.+)$", lines[i - 1])
        if not m:
            errs.append(f"line {i} should be '{key}: ...'")
        else:
            hdr[key] = m.group(1).strip()
    if lines[6].strip() != '"""':
        errs.append("line 7 must close the docstring")
    return hdr, errs


def markers(lines: list[str]) -> tuple[list[int], list[int], list[int]]:
    def find(pattern: str) -> list[int]:
        return [i + 1 for i, text in enumerate(lines) if re.search(pattern, text)]

    return find(r"#\s*root-cause(?![-\w])"), find(r"#\s*root-cause-alt\b"), find(r"#\s*fails-here\b")


def run(py: str, path: str, cwd: str) -> tuple[int, str, int | None, str]:
    """Exit code, the last exception line, the script line it was raised at, and the output."""
    p = subprocess.run([py, path], capture_output=True, text=True, timeout=300, cwd=cwd)
    line = None
    for m in re.finditer(r'File "([^"]+)", line (\d+)', p.stderr):
        if os.path.realpath(m.group(1)) == os.path.realpath(path):
            line = int(m.group(2))
    errs = [text for text in p.stderr.splitlines() if re.match(r"^[\w.]+(Error|Exception):", text)]
    return p.returncode, (errs[-1] if errs else ""), line, p.stdout + p.stderr


def used_sources(set_dir: str) -> set[str]:
    """source: URLs of the other real-world sets: every /work/main/tests/realworld*/ set plus the
    sibling sets of this checkout (a set not yet merged into /work/main counts too). This set's
    own files, wherever it is checked out, are excluded."""
    out = set()
    files = []
    for root in ("/work/main/tests", os.path.dirname(set_dir)):
        for kind in ("broken", "correct"):
            files += glob.glob(os.path.join(root, "realworld*", kind, "*.py"))
    for f in files:
        if os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(f)))) == os.path.basename(set_dir):
            continue
        with open(f, errors="replace") as fh:
            for text in fh.readlines()[:10]:
                if text.startswith("source:"):
                    out.add(text.split(":", 1)[1].strip())
    return out


def check_file(py: str, set_dir: str, path: str, kind: str, used: set[str], silent: Silent, verbose: bool) -> list[str]:
    problems = []
    lines = Path(path).read_text().splitlines()
    hdr, errs = parse_header(lines)
    problems += errs
    if errs:
        return problems
    rc, alt, fh = markers(lines)
    if hdr["expect"] not in EXPECT_OK:
        problems.append(f"expect '{hdr['expect']}' is not DG001..DG018 or none")
    if hdr["source"] in used:
        problems.append(f"source already used in tests/realworld*: {hdr['source']}")
    code, exc, line, output = run(py, path, set_dir)
    outcome = hdr["outcome"]
    if kind == "correct":
        if rc or alt or fh:
            problems.append("correct script carries markers")
        if hdr["root-cause"] != "-" or hdr["expect"] != "none" or not outcome.startswith("ok"):
            problems.append("correct script header must be outcome ok / root-cause - / expect none")
        if code != 0:
            problems.append(f"correct script exited {code}: {exc or output[-300:]}")
        return problems
    if len(rc) != 1:
        problems.append(f"expected exactly one '# root-cause' marker, found {rc}")
    elif hdr["root-cause"] != f"line {rc[0]}":
        problems.append(f"header root-cause '{hdr['root-cause']}' != marker line {rc[0]}")
    if len(alt) > 1:
        problems.append(f"more than one root-cause-alt marker: {alt}")
    if len(fh) > 1:
        problems.append(f"more than one fails-here marker: {fh}")
    m = re.search(r" at line (\d+)", outcome)
    recorded_line = int(m.group(1)) if m else None
    if recorded_line is not None and fh and recorded_line != fh[0]:
        problems.append(f"outcome says line {recorded_line} but fails-here is at {fh[0]}")
    if outcome.startswith(("ok", "cuda-only")):
        if code != 0:
            problems.append(f"recorded '{outcome[:40]}...' but exit {code}: {exc}")
        for prefix, (pattern, test) in silent.items():
            if os.path.basename(path).startswith(prefix):
                shown = re.search(pattern, output)
                if not shown or (test and not test(shown)):
                    problems.append(f"silent outcome no longer shows /{pattern}/")
    elif code == 0:
        problems.append("recorded an error but the script exited 0")
    else:
        rec_type = outcome.split(":", 1)[0]
        got_type = exc.split(":", 1)[0]
        if rec_type.split(".")[-1] != got_type.split(".")[-1]:
            problems.append(f"exception type {got_type} != recorded {rec_type}")
        rec_msg = outcome.split(":", 1)[1].split(" ...")[0].split(" at line ")[0].strip()[:60]
        if rec_msg and rec_msg not in exc:
            problems.append(f"message mismatch: recorded '{rec_msg}', got '{exc[:120]}'")
        if recorded_line != line:
            problems.append(f"raised at script line {line}, recorded {recorded_line}")
    if verbose:
        print(f"   {os.path.basename(path)}: exit {code} {exc[:90]}")
    return problems


def check(set_dir: str, silent: Silent, argv: list[str] | None = None) -> int:
    """Re-run every script of the set and verify its header against its markers and its real outcome."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=PY)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    set_dir = os.path.abspath(set_dir)
    used = used_sources(set_dir)
    failures = total = 0
    for kind in ("broken", "correct"):
        for path in sorted(glob.glob(os.path.join(set_dir, kind, "*.py"))):
            total += 1
            probs = check_file(args.python, set_dir, path, kind, used, silent, args.verbose)
            print(f"{'ok  ' if not probs else 'FAIL'} {kind}/{os.path.basename(path)}")
            for p in probs:
                print(f"       - {p}")
            failures += bool(probs)
    print(f"{total - failures}/{total} scripts match their headers")
    return 1 if failures else 0


def fill(set_dir: str, files: list[str]) -> None:
    """Fill `root-cause: line N` from the markers, `{FH}` placeholders, and `outcome: AUTO` from a real run."""
    for path in files or sorted(glob.glob(os.path.join(set_dir, "broken", "*.py"))):
        lines = Path(path).read_text().split("\n")
        rc, _alt, fh = markers(lines)
        if rc:
            lines[4] = f"root-cause: line {rc[0]}"
        if fh:
            lines[3] = lines[3].replace("{FH}", str(fh[0]))
        if lines[3].strip() == "outcome: AUTO":
            code, exc, line, out = run(PY, path, set_dir)
            if code == 0:
                print(f"{os.path.basename(path)}: exited 0, cannot fill AUTO\n{out[-500:]}")
                continue
            if "Weights only load failed" in exc:
                m = re.search(r"(WeightsUnpickler error: Unsupported global: GLOBAL \S+ was not an allowed global by default\.)", out)
                exc = exc.split(" This file")[0] + " ... " + (m.group(1) if m else "") + " ..."
            lines[3] = f"outcome: {exc} at line {line}"
            if fh and fh[0] != line:
                print(f"{os.path.basename(path)}: raised at {line} but fails-here at {fh[0]}")
        Path(path).write_text("\n".join(lines))
        print(f"{os.path.basename(path)}: {lines[3][:150]} | {lines[4]}")


def readme(set_dir: str) -> str:
    """The Broken and Correct tables of a set's README, from the script headers and markers."""

    def row(path: str, kind: str) -> str:
        lines = Path(path).read_text().splitlines()
        hdr = {k: lines[i].split(": ", 1)[1] for i, k in enumerate(KEYS, start=1)}
        _rc, alt, fh = markers(lines)
        outcome = hdr["outcome"] if kind == "broken" else f"{lines[0][3:]} (exit 0)"
        return (f"| `{os.path.basename(path)}` | {hdr['expect']} | {hdr['root-cause'].replace('line ', '')} | "
                f"{alt[0] if alt else '-'} | {fh[0] if fh else '-'} | {outcome.replace('|', '/')} | {hdr['source']} |")

    out = []
    for kind, title in (("broken", "## Broken"), ("correct", "## Correct (all exit 0, expect no finding)")):
        out += [title, "", "| file | expect | root-cause | alt | fails-here | outcome | source |", "|---|---|---|---|---|---|---|"]
        out += [row(p, kind) for p in sorted(glob.glob(os.path.join(set_dir, kind, "*.py")))]
        out.append("")
    return "\n".join(out).rstrip("\n")


if __name__ == "__main__":
    command, set_dir, *rest = sys.argv[1:]
    if command == "fill":
        fill(os.path.abspath(set_dir), rest)
    elif command == "readme":
        print(readme(os.path.abspath(set_dir)))
    else:
        sys.exit(f"unknown command {command!r}: fill or readme (a set's own check.py checks it)")
