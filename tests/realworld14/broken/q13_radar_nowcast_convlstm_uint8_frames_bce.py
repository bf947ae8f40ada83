"""Precipitation nowcasting with a small ConvLSTM: RadarSequences yields future frames thresholded to a uint8 rain mask (frames >= threshold).astype(np.uint8), which the trainer passes straight to nn.BCELoss as the target
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/15
reported-error: RuntimeError: Found dtype Byte but expected Float
outcome: RuntimeError: Found dtype Byte but expected Float at line 59
root-cause: line 51
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid):
        super().__init__()
        self.hid = hid
        self.gates = nn.Conv2d(in_ch + hid, 4 * hid, 3, padding=1)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = self.gates(torch.cat([x, h], 1)).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, (h, c)


class Nowcaster(nn.Module):
    def __init__(self, hid=8):
        super().__init__()
        self.cell = ConvLSTMCell(1, hid)
        self.out = nn.Conv2d(hid, 1, 1)

    def forward(self, seq, n_future):
        b, t, _, hgt, wid = seq.shape
        state = (seq.new_zeros(b, self.cell.hid, hgt, wid), seq.new_zeros(b, self.cell.hid, hgt, wid))
        for k in range(t):
            h, state = self.cell(seq[:, k], state)
        preds = []
        for _ in range(n_future):
            p = torch.sigmoid(self.out(h))
            preds.append(p)
            h, state = self.cell(p, state)
        return torch.stack(preds, 1)


def radar_sequences(n_batches, threshold=0.5, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_batches):
        frames = rng.random((4, 8, 1, 16, 16), dtype=np.float32)
        past, future = frames[:, :5], frames[:, 5:]
        yield torch.from_numpy(past), torch.from_numpy((future >= threshold).astype(np.uint8))  # root-cause


model = Nowcaster()
criterion = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for past, rain in radar_sequences(3):
    pred = model(past, n_future=3)
    loss = criterion(pred, rain)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
