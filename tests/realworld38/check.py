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
# ag02 (DQN) and ag07 (Informer) must report a float64 loss (DG008); the two cuda-only scripts (ag03, ag05) exit 0
# on CPU and must still finish their training there.
SILENT = {
    "ag02_": (r"n_episode :\d+, loss [\d.]+, loss dtype torch\.float64", None),
    "ag03_": (r"Episode: \d+, total numsteps: \d+.*\n(.*\n)*Saving models to ", None),
    "ag05_": (r"Test set results: loss= [\d.]+ accuracy= [\d.]+", None),
    "ag07_": (r"Epoch: 2, Steps: \d+ \| Train Loss: [\d.]+ .* \| loss dtype torch\.float64", None),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
