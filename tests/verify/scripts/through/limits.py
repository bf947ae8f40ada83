"""One environment limit per run, chosen by argv[1]: a missing data file, a GPU, or input."""
import sys

import torch

what = sys.argv[1]
if what == "file":
    with open("data/train.csv") as handle:  # FILE-LINE
        data = handle.read()
elif what == "gpu":
    x = torch.zeros(3).cuda()  # GPU-LINE
else:
    answer = input("continue? ")  # INPUT-LINE
