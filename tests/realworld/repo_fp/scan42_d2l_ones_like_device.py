"""Dive-into-DL-PyTorch 2.2: `y = torch.ones_like(x, device=device)` then `z = x.to(device) + y`

source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/master/code/chapter02_prerequisite/2.2_tensor.ipynb
false-alarm: DG009: `*_like(x, device=...)` makes its result on the device named, not on x's (scan 42).
Like the original, this needs a GPU.
"""
import torch

x = torch.tensor([1, 2])
device = torch.device("cuda")
y = torch.ones_like(x, device=device)
z = x.to(device) + y
print(z, z.to("cpu", torch.double))
