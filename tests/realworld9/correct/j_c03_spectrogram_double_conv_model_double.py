"""Audio classifier kept in double precision on purpose: the spectrogram batches are th.DoubleTensor(np.random.uniform(...)) and the network is converted with .double() right after construction, as suggested in the report
source: https://github.com/pytorch/pytorch/issues/2552
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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


class FrameConv(th.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.conv1 = th.nn.Conv2d(1, cfg.out_channels, kernel_size=(2, cfg.n_bins), stride=(1, 1))
        self.fc = th.nn.Linear(cfg.out_channels, 4)

    def forward(self, c):
        return self.fc(self.conv1(c).amax(dim=(2, 3)))


cfg = FeatureConfig()
net = FrameConv(cfg).double()
c = th.DoubleTensor(np.random.uniform(size=(cfg.batch, 1, cfg.n_frames, cfg.n_bins)))
loss = th.nn.functional.cross_entropy(net(c), th.randint(0, 4, (cfg.batch,)))
loss.backward()
print("loss", loss.item(), loss.dtype)
