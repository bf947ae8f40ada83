"""Re-run every project of this held-out multi-file set and verify its header against its markers and its real outcome.

Each case is a folder (broken/abNN_*/, correct/ab_cNN_*/) holding one entry script (train.py or main.py) whose first
seven lines are the header docstring, and the modules it imports. The entry script is run from inside its folder, as
a repository is run from its root; projects are data, never imported.

usage: python check.py [--python /work/main/.venv/bin/python] [-v] [--fill]
  --fill   fill `root-cause: AUTO` from the marker, `{FH}` from the fails-here marker and `outcome: AUTO` from a run
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/work/main/.venv/bin/python"
KEYS = ["source", "reported-error", "outcome", "root-cause", "expect"]
EXPECT_OK = {f"DG{i:03d}" for i in range(1, 19)} | {"none"}
ENTRY_NAMES = ("train.py", "main.py")
# silent outcomes: project-folder prefix -> regex the output of a run that exits 0 must still show
SILENT: dict[str, str] = {
    "ab09": r"loss dtype: torch\.float64",
    "ab11": r"torch\.bfloat16 weights changed per Adam step \(mean of 20\): [1-8]\d\.\d% of 57130",
}


def py_files(folder: str) -> list[str]:
    return sorted(glob.glob(os.path.join(folder, "**", "*.py"), recursive=True))


def read_lines(path: str) -> list[str]:
    with open(path, encoding="utf8") as f:
        return f.read().splitlines()


def is_header(lines: list[str]) -> bool:
    return len(lines) > 6 and lines[0].startswith('"""') and lines[1].startswith("source:")


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


def find_markers(folder: str) -> tuple[list[str], list[str]]:
    rc, fh = [], []
    for path in py_files(folder):
        rel = os.path.relpath(path, folder)
        for i, text in enumerate(read_lines(path), start=1):
            if re.search(r"#\s*root-cause(?![-\w])", text):
                rc.append(f"{rel}:{i}")
            if re.search(r"#\s*fails-here\b", text):
                fh.append(f"{rel}:{i}")
    return rc, fh


def run(py: str, folder: str, entry: str) -> tuple[int, str, str | None, str]:
    """Exit code, the last exception line, the innermost project frame 'file:line', and the output."""
    p = subprocess.run([py, entry], capture_output=True, text=True, timeout=300, cwd=folder)
    where = None
    root = os.path.realpath(folder) + os.sep
    for m in re.finditer(r'File "([^"]+)", line (\d+)', p.stderr):
        full = os.path.realpath(os.path.join(folder, m.group(1)))
        if full.startswith(root):
            where = f"{os.path.relpath(full, root)}:{m.group(2)}"
    errs = [t for t in p.stderr.splitlines() if re.match(r"^[\w.]+(Error|Exception):", t)]
    return p.returncode, (errs[-1] if errs else ""), where, p.stdout + p.stderr


def used_sources() -> set[str]:
    """source: URLs of every other real-world set: /work/main/tests/realworld*/ and the sibling sets of this
    checkout (single-file scripts or project folders, any depth)."""
    out = set()
    mine = os.path.realpath(HERE)
    for root in ("/work/main/tests", os.path.dirname(HERE), "/tmp/wt30/tests"):
        for set_dir in glob.glob(os.path.join(root, "realworld*")):
            if os.path.basename(set_dir) == os.path.basename(mine):
                continue
            for f in glob.glob(os.path.join(set_dir, "**", "*.py"), recursive=True):
                with open(f, errors="replace") as fh:
                    for text in fh.readlines()[:10]:
                        if text.startswith("source:"):
                            out.add(text.split(":", 1)[1].strip())
    return out


def entry_of(folder: str) -> tuple[str | None, list[str]]:
    heads = [p for p in py_files(folder) if is_header(read_lines(p))]
    if len(heads) != 1:
        return None, [f"expected exactly one file opening the header docstring, found {len(heads)}"]
    if os.path.basename(heads[0]) not in ENTRY_NAMES or os.path.dirname(heads[0]) != folder:
        return None, [f"the header file must be the folder's train.py or main.py, not {os.path.relpath(heads[0], folder)}"]
    return heads[0], []


def short_exc(exc: str, out: str) -> str:
    if "Weights only load failed" in exc:
        m = re.search(r"(WeightsUnpickler error: Unsupported global: GLOBAL \S+ was not an allowed global by default\.)", out)
        exc = exc.split(" This file")[0] + " ... " + (m.group(1) if m else "") + " ..."
    return exc


def check_project(py: str, folder: str, kind: str, used: set[str], verbose: bool) -> list[str]:
    entry, problems = entry_of(folder)
    if entry is None:
        return problems
    hdr, errs = parse_header(read_lines(entry))
    if errs:
        return errs
    rc, fh = find_markers(folder)
    if hdr["expect"] not in EXPECT_OK:
        problems.append(f"expect '{hdr['expect']}' is not DG001..DG018 or none")
    if hdr["source"] in used:
        problems.append(f"source already used in another realworld set: {hdr['source']}")
    modules = [p for p in py_files(folder) if p != entry]
    if not 1 <= len([p for p in modules if os.path.basename(p) != "__init__.py"]) <= 4:
        problems.append(f"expected 1-4 imported modules besides the entry script, found {len(modules)}")
    code, exc, where, output = run(py, folder, os.path.basename(entry))
    outcome = hdr["outcome"]
    if kind == "correct":
        if rc or fh:
            problems.append("correct project carries markers")
        if hdr["root-cause"] != "-" or hdr["expect"] != "none" or not outcome.startswith("ok"):
            problems.append("correct project header must be outcome ok / root-cause - / expect none")
        if code != 0:
            problems.append(f"correct project exited {code}: {exc or output[-300:]}")
    else:
        if len(rc) != 1:
            problems.append(f"expected exactly one '# root-cause' marker, found {rc}")
        elif hdr["root-cause"] != rc[0]:
            problems.append(f"header root-cause '{hdr['root-cause']}' != marker {rc[0]}")
        if len(fh) != 1:
            problems.append(f"expected exactly one '# fails-here' marker, found {fh}")
        if rc and fh and rc[0].split(":")[0] == fh[0].split(":")[0]:
            problems.append(f"root cause and failing line are in the same file ({rc[0]}, {fh[0]})")
        m = re.search(r" at (\S+\.py):(\d+)", outcome)
        recorded = f"{m.group(1)}:{m.group(2)}" if m else None
        if recorded is None:
            problems.append("outcome does not name the failing file:line")
        elif fh and recorded != fh[0]:
            problems.append(f"outcome says {recorded} but fails-here is at {fh[0]}")
        if outcome.startswith(("ok", "cuda-only")):
            if code != 0:
                problems.append(f"recorded '{outcome[:40]}...' but exit {code}: {exc}")
            for prefix, pattern in SILENT.items():
                if os.path.basename(folder).startswith(prefix) and not re.search(pattern, output):
                    problems.append(f"silent outcome no longer shows /{pattern}/")
        elif code == 0:
            problems.append("recorded an error but the project exited 0")
        else:
            rec_type = outcome.split(":", 1)[0]
            got_type = exc.split(":", 1)[0]
            if rec_type.split(".")[-1] != got_type.split(".")[-1]:
                problems.append(f"exception type {got_type} != recorded {rec_type}")
            rec_msg = outcome.split(":", 1)[1].split(" ...")[0].split(" at ")[0].strip()[:60]
            if rec_msg and rec_msg not in exc:
                problems.append(f"message mismatch: recorded '{rec_msg}', got '{exc[:120]}'")
            if recorded != where:
                problems.append(f"raised at {where}, recorded {recorded}")
    if verbose:
        print(f"   {os.path.basename(folder)}: exit {code} {exc[:80]} [{where}]")
    return problems


def fill(py: str) -> None:
    for folder in sorted(glob.glob(os.path.join(HERE, "broken", "*", ""))):
        folder = folder.rstrip(os.sep)
        entry, errs = entry_of(folder)
        if entry is None:
            print(os.path.basename(folder), errs)
            continue
        lines = read_lines(entry)
        rc, fh = find_markers(folder)
        if len(rc) == 1:
            lines[4] = f"root-cause: {rc[0]}"
        if len(fh) == 1:
            lines[3] = lines[3].replace("{FH}", fh[0].split(":")[1]).replace("at main.py:" + fh[0].split(":")[1], "at " + fh[0])
        if lines[3].strip() == "outcome: AUTO":
            code, exc, where, out = run(py, folder, os.path.basename(entry))
            if code == 0:
                print(f"{os.path.basename(folder)}: exited 0, cannot fill AUTO\n{out[-500:]}")
                continue
            lines[3] = f"outcome: {short_exc(exc, out)} at {where}"
            if fh and fh[0] != where:
                print(f"{os.path.basename(folder)}: raised at {where} but fails-here at {fh[0]}")
        with open(entry, "w", encoding="utf8") as f:
            f.write("\n".join(lines) + "\n")
        print(f"{os.path.basename(folder)}: {lines[3][:140]} | {lines[4]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default=PY)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--fill", action="store_true")
    args = ap.parse_args(argv)
    if args.fill:
        fill(args.python)
        return 0
    used = used_sources()
    failures = total = 0
    own: dict[str, str] = {}
    for kind in ("broken", "correct"):
        for folder in sorted(glob.glob(os.path.join(HERE, kind, "*", ""))):
            folder = folder.rstrip(os.sep)
            total += 1
            probs = check_project(args.python, folder, kind, used, args.verbose)
            entry, _ = entry_of(folder)
            if entry and kind == "broken":
                src = read_lines(entry)[1].split(":", 1)[1].strip()
                if src in own:
                    probs.append(f"source also used by {own[src]}")
                own[src] = os.path.basename(folder)
            print(f"{'ok  ' if not probs else 'FAIL'} {kind}/{os.path.basename(folder)}")
            for p in probs:
                print(f"       - {p}")
            failures += bool(probs)
    print(f"{total - failures}/{total} projects match their headers")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
