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
    # cd06: the decoder casts the bool causal mask to float (1.0 = "masked"), so the future is added, not blocked
    "cd06_": (r"future-token leak at position 3: ([0-9.]+)", lambda m: float(m.group(1)) > 1e-3),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
