"""Precipitation nowcasting where the rain mask is kept as a bool tensor in the generator and converted with .to(pred.dtype) inside the BCE loss wrapper, so BCELoss gets a float32 target of the prediction's dtype
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/15
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


class RainBCE(nn.Module):
    def __init__(self):
        super().__init__()
        self.bce = nn.BCELoss()

    def forward(self, pred, mask):
        return self.bce(pred, mask.to(pred.dtype))


def radar_sequences(n_batches, threshold=0.5, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_batches):
        frames = torch.from_numpy(rng.random((4, 8, 1, 16, 16), dtype=np.float32))
        yield frames[:, :5], frames[:, 5:] >= threshold


class FrameModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(5, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 1))

    def forward(self, past):
        b, t, c, h, w = past.shape
        return torch.sigmoid(self.net(past.view(b, t * c, h, w))).unsqueeze(2)


model, criterion = FrameModel(), RainBCE()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for past, rain in radar_sequences(3):
    loss = criterion(model(past), rain)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
