"""pytorch_wavelets-style DWT: filters registered at construction, set_default_dtype(float64) called afterwards for double data
source: https://github.com/fbcotter/pytorch_wavelets/issues/16
reported-error: dtype errors when using double-precision data (fixed by calling torch.set_default_dtype(torch.float64) first)
outcome: RuntimeError: expected scalar type Double but found Float at line 36
root-cause: line 55
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def prep_filt_afb2d(h0_col, h1_col, device=None):
    h0_col = np.array(h0_col[::-1]).ravel()
    h1_col = np.array(h1_col[::-1]).ravel()
    t = torch.get_default_dtype()
    h0 = torch.tensor(h0_col, device=device, dtype=t).reshape((1, 1, -1, 1))
    h1 = torch.tensor(h1_col, device=device, dtype=t).reshape((1, 1, -1, 1))
    return h0, h1


class DWTForward(nn.Module):
    """Single-level 2D Haar DWT along the rows (simplified from pytorch_wavelets)."""

    def __init__(self, wave='haar'):
        super().__init__()
        s = 1 / np.sqrt(2)
        h0, h1 = prep_filt_afb2d([s, s], [-s, s])
        self.register_buffer('h0_col', h0)
        self.register_buffer('h1_col', h1)

    def forward(self, x):
        C = x.shape[1]
        h = torch.cat([self.h0_col, self.h1_col], dim=0).repeat(C, 1, 1, 1)
        y = F.conv2d(x, h, stride=(2, 1), groups=C)  # fails-here
        return y[:, 0::2], y[:, 1::2]


class Denoiser(nn.Module):
    def __init__(self, C=1):
        super().__init__()
        self.xfm = DWTForward()
        self.gain = nn.Parameter(torch.ones(1, C, 1, 1))

    def forward(self, x):
        low, high = self.xfm(x)
        return low + self.gain * high


def main():
    model = Denoiser()
    # the pytorch_wavelets modules work with double data as well; the maintainer's advice:
    # "If you call torch.set_default_dtype(torch.float64) it might just work."
    torch.set_default_dtype(torch.float64)  # root-cause
    gain = model.gain
    x = torch.randn(4, 1, 16, 16)
    target = torch.randn(4, 1, 8, 16)
    optimizer = torch.optim.SGD([gain], lr=0.1)
    for it in range(10):
        optimizer.zero_grad()
        loss = ((model(x) - target) ** 2).mean()
        loss.backward()
        optimizer.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
