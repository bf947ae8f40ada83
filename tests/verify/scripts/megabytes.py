"""Prints several megabytes (stdout and stderr) before a normal first step."""
import sys

import torch

line = "x" * 99
block = "\n".join([line] * 100)
for _ in range(400):  # 4 MB in 40,000 lines
    print(block)
sys.stderr.write(("e" * 1023 + "\n") * 1024)
w = torch.nn.Parameter(torch.ones(3))
opt = torch.optim.SGD([w], lr=0.1)
w.sum().backward()
opt.step()
