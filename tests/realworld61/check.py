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
# bd02 is silent: the bfloat16 draft model trains without an error, but every trainable RMSNorm
# weight is still exactly 1.0 at the end (all of them, e.g. 240/240).
SILENT = {
    "bd02_": (r"trainable norm weights still exactly 1\.0: (\d+)/(\d+)", lambda m: int(m.group(1)) == int(m.group(2)) > 0),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
