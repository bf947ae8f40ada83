"""Self-attention ConvLSTM whose init_hidden() receives the input frames' device and creates the (h, c, m) states with torch.zeros(..., device=device), so they follow the batch onto the GPU
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/25
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


class SAConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.conv = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2)
        self.q, self.k, self.v = (nn.Conv2d(hid_ch, hid_ch, 1) for _ in range(3))
        self.mem = nn.Conv2d(2 * hid_ch, 3 * hid_ch, 1)

    def init_hidden(self, batch, size, device):
        h, w = size
        return tuple(torch.zeros(batch, self.hid_ch, h, w, device=device) for _ in range(3))

    def forward(self, x, state):
        h, c, m = state
        i, f, g, o = self.conv(torch.cat([x, h], 1)).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        b, ch, hh, ww = h.shape
        q, k, v = self.q(h).flatten(2), self.k(h).flatten(2), self.v(h).flatten(2)
        att = torch.softmax(q.transpose(1, 2) @ k / ch ** 0.5, -1)
        z = (v @ att.transpose(1, 2)).view(b, ch, hh, ww)
        mi, mg, mo = self.mem(torch.cat([z, m], 1)).chunk(3, 1)
        m = (1 - torch.sigmoid(mi)) * m + torch.sigmoid(mi) * torch.tanh(mg)
        return torch.sigmoid(mo) * m, (h, c, m)


class Seq2Seq(nn.Module):
    def __init__(self, in_ch=1, hid_ch=16):
        super().__init__()
        self.cell = SAConvLSTMCell(in_ch, hid_ch)
        self.head = nn.Conv2d(hid_ch, in_ch, 1)

    def forward(self, frames, horizon=3):
        b, t, c, h, w = frames.shape
        state = self.cell.init_hidden(b, (h, w), frames.device)
        for k in range(t):
            out, state = self.cell(frames[:, k], state)
        preds = []
        x = frames[:, -1]
        for _ in range(horizon):
            out, state = self.cell(x, state)
            x = torch.sigmoid(self.head(out))
            preds.append(x)
        return torch.stack(preds, 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args([])
    device = torch.device(args.device)
    rng = np.random.default_rng(0)
    radar = torch.from_numpy(rng.random((4, 8, 1, 16, 16)).astype(np.float32))
    model = Seq2Seq().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        x, y = radar[:, :5].to(device), radar[:, 5:].to(device)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("epoch", epoch, "mse", round(loss.item(), 4))


if __name__ == "__main__":
    main()
