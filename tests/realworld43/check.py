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
# al01 and al08 are silent (a float64 critic target promotes the MSE to float64 instead of raising on torch 2.13);
# al06 is cuda-only: it exits 0 on CPU and must still print its proposition similarities there.
SILENT = {
    "al01_": (r"epoch 2 avg reward [-\d.]+ critic loss [\d.]+\ncritic loss dtype torch\.float64", None),
    "al06_": (r"proposition similarities: \[\[[-\d., ]+\], \[[-\d., ]+\]\]", None),
    "al08_": (r"episode 3 score [-\d.]+\ncritic loss dtype torch\.float64", None),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
