"""Cold vs warm verification of one sample, measured in the same run.

A cold run starts the interpreter and imports torch (plus what the first optimizer construction
imports); a warm run forks a worker that already did. Usage:

    .venv/bin/python bench/bench_verify.py [SCRIPT] [--cold N] [--warm N] [--device cpu]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

from dtypeguard.verify.runner import VerifyResult, WarmWorker, run_verify  # noqa: E402

DEFAULT_SCRIPT = ROOT / "tests" / "verify" / "scripts" / "good.py"


def _time(label: str, fn: Callable[[], VerifyResult]) -> float:
    started = time.perf_counter()
    result = fn()
    took = time.perf_counter() - started
    print(f"  {label:<14} {took:7.3f} s   {result.summary()}")
    if result.status != "ok":
        raise SystemExit(f"{label}: expected ok, got {result.status}: {result.message}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script", nargs="?", default=str(DEFAULT_SCRIPT))
    parser.add_argument("--cold", type=int, default=2, help="cold runs (default 2)")
    parser.add_argument("--warm", type=int, default=5, help="warm runs (default 5)")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"))
    opts = parser.parse_args()

    print(f"script: {opts.script}  device: {opts.device}  python: {sys.executable}")
    print("cold:")
    cold = [
        _time(f"cold #{i + 1}", lambda: run_verify(opts.script, device=opts.device))
        for i in range(opts.cold)
    ]
    print("warm:")
    started = time.perf_counter()
    worker = WarmWorker(device=opts.device)
    worker.start()
    startup = time.perf_counter() - started
    if not worker.alive:
        raise SystemExit(f"warm worker failed: {worker.failure}")
    info = worker.info or {}
    print(
        f"  {'worker start':<14} {startup:7.3f} s   (torch import {info.get('import_torch_s')} s, "
        f"warm imports {info.get('warm_imports_s')} s)"
    )
    try:
        warm = [
            _time(f"warm #{i + 1}", lambda: run_verify(opts.script, device=opts.device, worker=worker))
            for i in range(opts.warm)
        ]
    finally:
        worker.close()
    cold_med = statistics.median(cold)
    warm_med = statistics.median(warm)
    print(
        f"median cold {cold_med:.3f} s, median warm {warm_med:.3f} s, "
        f"cold/warm ratio {cold_med / warm_med:.1f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
