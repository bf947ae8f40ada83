"""Re-run every script of this held-out set and verify its header against its markers and its real outcome
(the checks themselves: tests/realworld/setcheck.py, shared by every set).

usage: python check.py [--python /work/main/.venv/bin/python] [-v]
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "realworld"))
from setcheck import check  # noqa: E402

# Silent outcomes: what the run must still show (regex on stdout+stderr, optional numeric test).
SILENT = {
    "ad06_": (r"fold 0, loss dtype torch\.float64", None),
    "ad07_": (r"after training: (\d+) non-finite fp16 weights", lambda m: int(m.group(1)) > 0),
    "ad12_": (r"step 0: loss [^,]+, (\d+) non-finite float16 weights", lambda m: int(m.group(1)) > 0),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
