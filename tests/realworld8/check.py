"""Re-run every script of this held-out set and verify its header against its markers and its real outcome.

usage: python check.py [--python /work/main/.venv/bin/python] [-v]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = ["source", "reported-error", "outcome", "root-cause", "expect"]
EXPECT_OK = {f"DG{i:03d}" for i in range(1, 18)} | {"none"}


def parse_header(lines):
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


def markers(lines):
    rc = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*root-cause(?![-\w])", l)]
    alt = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*root-cause-alt\b", l)]
    fh = [i + 1 for i, l in enumerate(lines) if re.search(r"#\s*fails-here\b", l)]
    return rc, alt, fh


# Silent outcomes: what the run must still show (regex on stdout+stderr, optional numeric test).
SILENT = {
    "i03_": (r"set_default_tensor_type\(\) is deprecated", None),
    "i17_": (r"loss dtype torch\.float64", None),
    "i25_": (r"step 1: loss nan, non-finite extractor params (\d+)", lambda m: int(m.group(1)) > 0),
    "i26_": (r"weights changed: (\d+)/(\d+)", lambda m: int(m.group(1)) < int(m.group(2)) // 2),
}


def run(py, path):
    p = subprocess.run([py, path], capture_output=True, text=True, timeout=300, cwd=HERE)
    line = None
    for m in re.finditer(r'File "([^"]+)", line (\d+)', p.stderr):
        if os.path.realpath(m.group(1)) == os.path.realpath(path):
            line = int(m.group(2))
    err_lines = [l for l in p.stderr.splitlines() if re.match(r"^[\w.]+(Error|Exception):", l)]
    run.last_output = p.stdout + p.stderr
    return p.returncode, (err_lines[-1] if err_lines else ""), line, p.stderr


def used_sources():
    """source: URLs of the other real-world sets: every /work/main/tests/realworld*/ set (realworld .. realworld7 and
    realworld_lightning) plus the sibling sets of this checkout (so a set not yet merged into /work/main counts too).
    This set's own files, wherever it is checked out, are excluded."""
    out = set()
    roots = ["/work/main/tests", os.path.dirname(HERE)]
    files = []
    for root in roots:
        for kind in ("broken", "correct"):
            files += glob.glob(os.path.join(root, "realworld*", kind, "*.py"))
    for f in files:
        if os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(f)))) == os.path.basename(HERE):
            continue
        with open(f, errors="replace") as fh:
            for l in fh.readlines()[:10]:
                if l.startswith("source:"):
                    out.add(l.split(":", 1)[1].strip())
    return out


def check_file(py, path, kind, used, verbose):
    problems = []
    lines = open(path).read().splitlines()
    hdr, errs = parse_header(lines)
    problems += errs
    if errs:
        return problems
    rc, alt, fh = markers(lines)
    if hdr["expect"] not in EXPECT_OK:
        problems.append(f"expect '{hdr['expect']}' is not DG001..DG017 or none")
    if hdr["source"] in used:
        problems.append(f"source already used in tests/realworld*: {hdr['source']}")
    code, exc, line, stderr = run(py, path)
    outcome = hdr["outcome"]
    if kind == "correct":
        if rc or alt or fh:
            problems.append("correct script carries markers")
        if hdr["root-cause"] != "-" or hdr["expect"] != "none" or not outcome.startswith("ok"):
            problems.append("correct script header must be outcome ok / root-cause - / expect none")
        if code != 0:
            problems.append(f"correct script exited {code}: {exc or stderr[-300:]}")
        return problems
    # broken
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
    if outcome.startswith("ok") or outcome.startswith("cuda-only"):
        if code != 0:
            problems.append(f"recorded '{outcome[:40]}...' but exit {code}: {exc}")
        for prefix, (pattern, test) in SILENT.items():
            if os.path.basename(path).startswith(prefix):
                m = re.search(pattern, run.last_output)
                if not m or (test and not test(m)):
                    problems.append(f"silent outcome no longer shows /{pattern}/")
    else:
        if code == 0:
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", default="/work/main/.venv/bin/python")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    used = used_sources()
    failures = 0
    total = 0
    for kind in ("broken", "correct"):
        for path in sorted(glob.glob(os.path.join(HERE, kind, "*.py"))):
            total += 1
            probs = check_file(args.python, path, kind, used, args.verbose)
            status = "ok  " if not probs else "FAIL"
            print(f"{status} {kind}/{os.path.basename(path)}")
            for p in probs:
                print(f"       - {p}")
            failures += bool(probs)
    print(f"{total - failures}/{total} scripts match their headers")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
