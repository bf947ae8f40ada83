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
# ch01 (MMPose DEKR) must still report a float64 heatmap loss and a float64 summed loss; ch03 (MONAI box_iou)
# must still report int64 IoUs and a recall of 0 at IoU 0.1 although the detections overlap the nodules.
SILENT = {
    "ch01_": (r"loss/heatmap [\d.]+ dtype torch\.float64, loss/displacement dtype torch\.float32, loss dtype torch\.float64", None),
    "ch03_": (r"IoU dtype torch\.int64.*\nrecall@0\.1: ([\d.]+)", lambda m: float(m.group(1)) == 0.0),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
