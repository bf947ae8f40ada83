"""Self-attention ConvLSTM for radar-frame nowcasting: the Seq2Seq wrapper moves the model and the batches to the chosen device, but init_hidden() creates the (h, c, m) states with torch.zeros(...) without a device, so on a GPU the first cell step concatenates a cuda frame with cpu states
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/25
reported-error: Fix Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (torch.cat of the cuda frame with the cpu hidden state; not run on a GPU for this set) at line 29; on CPU: ok
root-cause: line 25
expect: DG009
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

    def init_hidden(self, batch, size):
        h, w = size
        return tuple(torch.zeros(batch, self.hid_ch, h, w) for _ in range(3))  # root-cause

    def forward(self, x, state):
        h, c, m = state
        i, f, g, o = self.conv(torch.cat([x, h], 1)).chunk(4, 1)  # fails-here
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
        state = self.cell.init_hidden(b, (h, w))
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
