"""`make bench` (engine part): analysis time of a 2,000-line training file vs libcst's parse.

Both are measured in the same run on the same text, so the ratio is meaningful even on a
noisy shared machine. Reports the median of several runs.
"""

from __future__ import annotations

import ast
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import libcst
from make_big_file import big_training_file

from dtypeguard.analysis import check_source


def _median(fn: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    text = big_training_file(2000)
    lines = text.count("\n")
    runs = 7
    check_source(text)  # warm imports
    t_check = _median(lambda: check_source(text), runs)
    t_ast = _median(lambda: ast.parse(text), runs)
    t_cst = _median(lambda: libcst.parse_module(text), 3)
    findings = len(check_source(text).findings)
    print(f"engine benchmark: {lines} lines, {findings} findings, median of {runs} runs")
    print(f"  dtypeguard check_source (parse + analysis): {t_check * 1000:8.1f} ms")
    print(f"  ast.parse alone:                            {t_ast * 1000:8.1f} ms")
    print(f"  libcst.parse_module alone:                  {t_cst * 1000:8.1f} ms")
    print(f"  ratio check / libcst parse: {t_check / t_cst:.2f}x (target <= 1.5x)")
    print(f"  ratio check / ast parse:    {t_check / t_ast:.2f}x")


if __name__ == "__main__":
    main()
