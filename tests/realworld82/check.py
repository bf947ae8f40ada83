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
# by03: the 0/1 float causal mask masks nothing, so position 0 sees the last token and the model copies the
# next token (loss far below the chance level of ln 16 = 2.77 on random tokens).
SILENT = {
    "by03": (r"future-token leak at position 0: ([0-9.]+)", lambda m: float(m.group(1)) > 1e-3),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
