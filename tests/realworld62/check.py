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
    # the float padding mask is added to the attention scores: one history padded to 20 and to 50 scores differently
    "be02_": (r"training view: max \|score\(pad 20\) - score\(pad 50\)\| = ([\d.]+)", lambda m: float(m.group(1)) > 0.1),
    # uint16 token files: every added chat-template id (>= 65536) reads back as a different id
    "be03_": (r"(\d+) of (\d+) chat-template token positions read back as a different id",
              lambda m: int(m.group(1)) == int(m.group(2)) > 0),
    # uint8 held-out ids act as byte masks: even the trained model's hit rate is a perfect 1.000
    "be05_": (r"trained model:\s+HR@10 = ([\d.]+)", lambda m: float(m.group(1)) == 1.0),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
