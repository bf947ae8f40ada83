"""pytorch-wgan-gp moves a visualised tensor to the CPU when it is a CUDA float tensor, by an isinstance test

source: https://github.com/kuc2477/pytorch-wgan-gp/blob/master/visual.py#L32
(`tensor = tensor.cpu() if isinstance(tensor, torch.cuda.FloatTensor) else tensor`, then `.numpy()`)
false-alarm: DG009 at visual.py:36 and main.py:70 (scan 36): the finding said `.numpy()` fails on a GPU tensor.
`isinstance(t, torch.cuda.FloatTensor)` is true for every float32 CUDA tensor, so the `else` branch holds a CPU one.
This reduction runs on the CPU (exit 0).
"""
import torch
from torch.cuda import FloatTensor as CUDATensor


def show(t):
    t = t.cpu() if isinstance(t, CUDATensor) else t
    return t.numpy()


x = torch.randn(4).cuda() if torch.cuda.is_available() else torch.randn(4)
show(x)
