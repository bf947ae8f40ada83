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
# No script of this set is silent; the two cuda-only scripts (ak05, ak09) exit 0 on CPU and must still finish
# their training (and, for ak05, the saved model's prediction pass) there.
SILENT = {
    "ak05_": (r"Epoch \[2/2\], train_loss: [\d.]+\n(.*\n)*Finished Training, model saved to .*\n(.*\n)*anomalous sessions: \d+/10", None),
    "ak09_": (r"episode return [-\d.]+\n(.*\n)*training done, last loss [\d.]+", None),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
