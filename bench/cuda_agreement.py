"""Agreement of emulated CUDA with the CUDA errors users reported (not a timed test).

Why: the emulation is only worth its name if, on a machine without a GPU, `dtypeguard verify
--device cuda` stops where the reporter's GPU run stopped, with the same error. The measurement
set is every broken real-world script whose header says `outcome: cuda-only: <Error>: <message>
at line N; on CPU: ok` (written before the emulation existed). A script agrees when the run
ends in status "error" with the same error type at line N and the message starts with the
reported message's key phrase (up to its first "(", "," or " at line"); "exact" also needs the
reporter's full wording. The outcome text is compared, never special-cased by the emulation.

    python bench/cuda_agreement.py [--json OUT] [--device cuda|cuda-emulated] [--through N] [--only REGEX]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "server"))

from dtypeguard.verify.runner import run_verify  # noqa: E402
from dtypeguard.verify.warm import WarmWorker  # noqa: E402

_OUTCOME = re.compile(r"^outcome: cuda-only: (?P<text>.*)$", re.M)
_LINE = re.compile(r" at line (?P<line>\d+)")
_ERROR = re.compile(r"(?P<type>[A-Z]\w*(?:Error|Warning))(?::\s*(?P<message>.*))?")


def expectation(path: str) -> dict[str, object] | None:
    with open(path, encoding="utf-8") as handle:
        text = handle.read(4000)
    match = _OUTCOME.search(text)
    if match is None:
        return None
    outcome = match.group("text").split("; on CPU:")[0]
    line = _LINE.search(outcome)
    error = _ERROR.search(outcome)
    message = ""
    if error and error.group("message"):
        message = _LINE.split(error.group("message"))[0].strip()
    key = re.split(r"\(|,| at line|\.\.\.", message)[0].strip() if message else ""
    return {
        "line": int(line.group("line")) if line else None,
        "error_type": error.group("type") if error else None,
        "message": message,
        "key": key,
        "outcome": outcome,
    }


def judge(expect: dict[str, object], result: dict[str, object]) -> str:
    etype = expect["error_type"]
    if etype is None or str(etype).endswith("Warning"):
        return "not-an-error"
    if result.get("status") != "error":
        return "miss"
    if result.get("error_type") != etype:
        return "miss"
    outer = False
    if result.get("line") != expect["line"]:
        # The header names one frame of the script's call chain (often the call into the
        # model), verify the innermost one: the same traceback, another line of it.
        if expect["line"] not in _script_lines(str(result.get("traceback") or ""), str(result.get("file") or "")):
            return "miss"
        outer = True
    actual = str(result.get("message") or "")
    key = str(expect["key"])
    if key and not actual.startswith(key):
        return "miss"
    full = str(expect["message"]).split(" (")[0].rstrip("!. ")
    verdict = "exact" if full and actual.startswith(full) else "agree"
    return verdict + "-outer" if outer else verdict


def _script_lines(traceback: str, file: str) -> set[int]:
    name = os.path.basename(file)
    return {int(m.group(2)) for m in re.finditer(r'File "([^"]+)", line (\d+)', traceback)
            if os.path.basename(m.group(1)) == name}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--json", default=None)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--through", type=int, default=0, metavar="N",
                        help="run-through mode (verify --through): go on N steps past the first, "
                             "then through evaluation, as a user verifying the whole path does")
    parser.add_argument("--only", default="", metavar="REGEX",
                        help="only the scripts whose path (relative to the checkout) matches REGEX")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "realworld*", "broken", "*.py")))
    files = [f for f in files if re.search(args.only, os.path.relpath(f, ROOT))]
    cases = [(f, e) for f in files if (e := expectation(f)) is not None]
    worker = WarmWorker(device=args.device)
    worker.start()
    rows = []
    started = time.monotonic()
    for path, expect in cases:
        result = run_verify(path, device=args.device, timeout=args.timeout, worker=worker,
                             through=args.through).to_json()
        verdict = judge(expect, result)
        rows.append({"file": os.path.relpath(path, ROOT), "verdict": verdict,
                     "expected": {k: expect[k] for k in ("error_type", "line", "message")},
                     "got": {k: result.get(k) for k in ("status", "error_type", "line", "message")},
                     "emulated": result.get("emulated")})
        got = result.get("status"), result.get("error_type"), result.get("line")
        print(f"{verdict:13} {os.path.relpath(path, ROOT)}  expected {expect['error_type']}@{expect['line']}  "
              f"got {got}: {str(result.get('message') or '')[:110]!r}")
    worker.close()
    counted = [r for r in rows if r["verdict"] != "not-an-error"]
    agree = sum(r["verdict"] in ("agree", "exact") for r in counted)
    exact = sum(r["verdict"] == "exact" for r in counted)
    outer = sum(r["verdict"].endswith("-outer") for r in counted)
    print(f"\nagreement {agree}/{len(counted)} at the reported line (exact wording {exact}); "
          f"{agree + outer}/{len(counted)} with the reported line an outer frame of the same traceback; "
          f"{len(rows) - len(counted)} outcome(s) are not errors; {time.monotonic() - started:.0f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump({"agree": agree, "exact": exact, "outer": outer, "counted": len(counted), "rows": rows}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
