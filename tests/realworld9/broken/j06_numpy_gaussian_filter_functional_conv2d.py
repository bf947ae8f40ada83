"""Image smoothing front-end: a fixed 5x5 filter made with numpy (np.random.rand / a Gaussian, float64) is wrapped with torch.from_numpy and passed to F.conv2d with float32 image batches, next to a learnable Conv2d
source: https://github.com/pytorch/pytorch/issues/1357
reported-error: ConvNd C implementation doesn't check tensor types (weights from np.random.rand are float64; the functional conv2d result was far off in scale)
outcome: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor at line 29
root-cause: line 25
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def make_filter(filter_size=5, sigma=1.2, jitter=0.05):
    ax = np.arange(filter_size) - filter_size // 2
    g = np.exp(-(ax[:, None] ** 2 + ax[None, :] ** 2) / (2 * sigma**2))
    g = g + jitter * np.random.rand(filter_size, filter_size)
    return g / g.sum()


class SmoothThenLearn(nn.Module):
    def __init__(self, filter_size=5):
        super().__init__()
        weights = make_filter(filter_size)
        self.smooth = torch.from_numpy(weights.reshape(1, 1, filter_size, filter_size))  # root-cause
        self.psi = nn.Conv2d(1, 1, filter_size, bias=True, padding=filter_size // 2)

    def forward(self, x):
        smoothed = F.conv2d(x, self.smooth, padding=self.smooth.shape[-1] // 2)  # fails-here
        return self.psi(smoothed)


def main():
    a = torch.randn(3, 3, 64, 64)
    model = SmoothThenLearn()
    out = model(a.view(9, 1, 64, 64))
    print(out.mean().item())


main()
