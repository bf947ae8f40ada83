"""Audio classifier whose spectrogram batches are built with th.DoubleTensor(np.random.uniform(...)) in a feature helper configured by a dataclass; the float32 Conv2d with a (2, 100) kernel gets double input
source: https://github.com/pytorch/pytorch/issues/2552
reported-error: RuntimeError: expected Double tensor (got Float tensor) (fixed by making the input .float())
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 34
root-cause: line 23
expect: DG004
"""
from dataclasses import dataclass

import numpy as np
import torch as th


@dataclass
class FeatureConfig:
    batch: int = 16
    n_frames: int = 64
    n_bins: int = 100
    out_channels: int = 123


def spectrogram_batch(cfg):
    a = th.DoubleTensor(np.random.uniform(size=(cfg.batch, 1, cfg.n_frames, cfg.n_bins)))  # root-cause
    return a.requires_grad_(False)


class FrameConv(th.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv1 = th.nn.Conv2d(in_channels=1, out_channels=cfg.out_channels, kernel_size=(2, cfg.n_bins), stride=(1, 1))
        self.fc = th.nn.Linear(cfg.out_channels, 4)

    def forward(self, c):
        b = self.conv1(c)  # fails-here
        return self.fc(b.amax(dim=(2, 3)))


def run(cfg):
    net = FrameConv(cfg)
    c = spectrogram_batch(cfg)
    labels = th.randint(0, 4, (cfg.batch,))
    loss = th.nn.functional.cross_entropy(net(c), labels)
    loss.backward()
    print("loss", loss.item())


if __name__ == "__main__":
    run(FeatureConfig())
