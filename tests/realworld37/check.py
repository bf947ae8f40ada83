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
# af03 and af04 (DG012) must end with non-finite float16 weights, af05 (DG013) with LayerNorm gains and a logit
# scale that never moved; the two cuda-only scripts (af09, af10) exit 0 on CPU and must still finish their
# training loop there.
SILENT = {
    "af03_": (r"after training: (\d+) non-finite float16 weights", lambda m: int(m.group(1)) > 0),
    "af04_": (r"after training: (\d+) non-finite float16 weights", lambda m: int(m.group(1)) > 0),
    "af05_": (r"after \d+ steps: (\d+) of \d+ LayerNorm gains moved, logit_scale moved: False", lambda m: int(m.group(1)) == 0),
    "af09_": (r"epoch 1: step \d+, loss \d", None),
    "af10_": (r"epoch 1: loss per word \d", None),
}

if __name__ == "__main__":
    sys.exit(check(HERE, SILENT, sys.argv[1:]))
