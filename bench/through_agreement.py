"""Run-through agreement: does `verify --through` say what a real full run on the CPU says?

For every script of the samples (`samples/`) and the real-world sets (`tests/realworld*/`
broken and correct), the truth is the real full run on the CPU with the installed torch:
the script's `outcome:` header where it has one ("ok ...", "cuda-only: ... on CPU: ok", or
"<ExceptionType>: message ... at line N"), else a plain full run made here (`python
script.py` with CUDA hidden, in a scratch copy of its folder). Run-through agrees when both
are ok, or both fail with the same exception type at the same line.

    python bench/through_agreement.py [--limit N] [--cold-samples] [--json OUT] [--only SUBSTR]

Prints every disagreement with both outcomes, the agreement N/M, and the median wall time of
the run-through (warm worker; with --cold-samples also cold, on the samples).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from dtypeguard.verify.runner import VerifyResult, WarmWorker, run_verify  # noqa: E402

_AT_LINE = re.compile(r"at line (\d+)")
_TYPE = re.compile(r"^(?:[\w.]+\.)?(\w+(?:Error|Exception|Interrupt|Exit|Warning))\b")
_TRACE_LINE = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)')


def scripts() -> list[Path]:
    found = sorted((ROOT / "samples").glob("*.py"))
    for sub in ("hazards", "fixed", "clean"):
        found += sorted((ROOT / "samples" / sub).glob("*.py"))
    for folder in sorted(ROOT.glob("tests/realworld*")):
        for sub in ("broken", "correct"):
            found += sorted((folder / sub).glob("*.py"))
    return found


def header_outcome(path: Path) -> str | None:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:30]:
        if line.startswith("outcome:"):
            return line[len("outcome:"):].strip()
    return None


def parse_outcome(text: str) -> tuple[str, int | None]:
    """("ok", None) or (ExceptionType, line). The first "at line N" is the CPU run's; a later
    one describes another machine ("on a GPU machine: ... at line 55")."""
    if text.startswith("ok") or text.startswith("cuda-only"):
        return ("ok", None)
    match = _TYPE.match(text)
    line = _AT_LINE.findall(text)
    return (match.group(1) if match else text.split(":")[0], int(line[0]) if line else None)


def real_run(path: Path, timeout: float) -> tuple[str, int | None]:
    """A plain full run on the CPU, in a scratch copy of the script's folder."""
    scratch = Path(tempfile.mkdtemp(prefix="through-truth-"))
    try:
        for entry in path.parent.iterdir():
            if entry.name != path.name:
                (scratch / entry.name).symlink_to(entry)
        shutil.copyfile(path, scratch / path.name)
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
        try:
            proc = subprocess.run(
                [sys.executable, path.name], cwd=scratch, env=env, capture_output=True, text=True,
                timeout=timeout, stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return ("timeout", None)
        if proc.returncode == 0:
            return ("ok", None)
        last = [line for line in proc.stderr.strip().splitlines() if line.strip()]
        kind = _TYPE.match(last[-1]) if last else None
        lines = [int(m.group("line")) for m in _TRACE_LINE.finditer(proc.stderr)
                 if os.path.basename(m.group("path")) == path.name]
        return (kind.group(1) if kind else f"exit {proc.returncode}", lines[-1] if lines else None)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def through_outcome(res: VerifyResult) -> tuple[str, int | None]:
    if res.status == "ok":
        return ("ok", None)
    if res.status == "error":
        return (str(res.error_type), res.line)
    return (res.status, res.line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--only", default="")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--cold-samples", action="store_true")
    parser.add_argument("--json", default="")
    opts = parser.parse_args()
    paths = [p for p in scripts() if opts.only in str(p)]
    if opts.limit:
        paths = paths[: opts.limit]
    rows = []
    worker = WarmWorker(device="cpu")
    worker.start()
    try:
        for path in paths:
            rel = str(path.relative_to(ROOT))
            header = header_outcome(path)
            truth = parse_outcome(header) if header is not None else real_run(path, opts.timeout)
            started = time.monotonic()
            res = run_verify(str(path), device="cpu", timeout=opts.timeout, worker=worker, through=2)
            warm_s = time.monotonic() - started
            got = through_outcome(res)
            agree = got == truth
            one = through_outcome(run_verify(str(path), device="cpu", timeout=opts.timeout, worker=worker))
            row = {"script": rel, "truth": truth, "through": got, "agree": agree, "warm_s": round(warm_s, 3),
                   "mode": res.mode, "truth_from": "header" if header is not None else "full run",
                   "one_step": one, "one_step_agree": one == truth,
                   "warnings": [w.rule or w.kind for w in res.warnings], "limit": res.limit,
                   "phases": [p.get("phase") for p in (res.through or {}).get("phases", [])],
                   "message": (res.message or "")[:200]}
            if opts.cold_samples and rel.startswith("samples/"):
                started = time.monotonic()
                run_verify(str(path), device="cpu", timeout=opts.timeout, through=2)
                row["cold_s"] = round(time.monotonic() - started, 3)
            rows.append(row)
            mark = "  " if agree else "XX"
            print(f"{mark} {rel}: truth={truth} through={got} ({warm_s:.2f} s {res.mode})", flush=True)
    finally:
        worker.close()
    agree = sum(r["agree"] for r in rows)
    print(f"\nrun-through agreement: {agree}/{len(rows)}")
    print(f"one-step verify agreement (an ok step counts as ok): {sum(r['one_step_agree'] for r in rows)}/{len(rows)}")
    for r in rows:
        if r["agree"] and not r["one_step_agree"]:
            print(f"  run-through only: {r['script']}: real {r['truth']}, one-step {r['one_step']}")
    caught = [r["script"] for r in rows if "DG011" in r["warnings"]]
    print(f"checkpoint load-back warnings (DG011): {len(caught)}: {', '.join(caught)}")
    for part in ("samples/", "tests/realworld"):
        sub = [r for r in rows if r["script"].startswith(part)]
        if sub:
            print(f"  {part}: {sum(r['agree'] for r in sub)}/{len(sub)}")
    for r in rows:
        if not r["agree"]:
            print(f"  disagree: {r['script']}: real {r['truth']} vs run-through {r['through']} ({r['message']})")
    samples = [r for r in rows if r["script"].startswith("samples/")]
    if samples:
        print(f"median wall time on the samples: warm {statistics.median(r['warm_s'] for r in samples):.2f} s", end="")
        cold = [r["cold_s"] for r in samples if "cold_s" in r]
        print(f", cold {statistics.median(cold):.2f} s" if cold else "")
    print(f"median wall time, all (warm): {statistics.median(r['warm_s'] for r in rows):.2f} s")
    if opts.json:
        Path(opts.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
