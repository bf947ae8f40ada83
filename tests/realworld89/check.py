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
    # cf01: the midline targets (and with them the MSE term) are float64 next to the float32 regression head
    "cf01_": (r"midline targets dtype: torch\.(\w+), regression head dtype: torch\.float32, MSE loss dtype: torch\.(\w+)",
              lambda m: m.group(1) == "float64" and m.group(2) == "float64"),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
