"""Run-through against one-step verify on the samples, warm and cold, measured in the same run.

The run-through goes past the first step to the end of the script with every DataLoader capped
at --batches batches, so its cost over the one-step verify is the rest of the script at a few
batches per pass. Prints the median wall time of each of the four (mode x warm/cold) over the
scripts under samples/. Usage:

    .venv/bin/python bench/bench_through.py [--batches 2] [--cold] [--only SUBSTR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from dtypeguard.verify.runner import WarmWorker, run_verify  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=2)
    parser.add_argument("--cold", action="store_true", help="also cold runs (a torch import each)")
    parser.add_argument("--only", default="")
    opts = parser.parse_args()
    scripts = [p for p in sorted((ROOT / "samples").rglob("*.py")) if opts.only in str(p)]
    times: dict[str, list[float]] = {"one-step warm": [], "through warm": [], "one-step cold": [], "through cold": []}
    with WarmWorker(device="cpu") as worker:
        for path in scripts:
            row = []
            for label, through, warm in (("one-step", 0, True), ("through", opts.batches, True),
                                         ("one-step", 0, False), ("through", opts.batches, False)):
                if not warm and not opts.cold:
                    continue
                started = time.perf_counter()
                res = run_verify(str(path), device="cpu", timeout=120.0, worker=worker if warm else None, through=through)
                took = time.perf_counter() - started
                times[f"{label} {'warm' if warm else 'cold'}"].append(took)
                row.append(f"{label} {'warm' if warm else 'cold'} {took:6.2f} s {res.status}")
            print(f"{path.relative_to(ROOT)}: " + "; ".join(row), flush=True)
    for label, values in times.items():
        if values:
            print(f"median {label}: {statistics.median(values):.2f} s over {len(values)} scripts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
