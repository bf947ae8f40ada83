"""ConvLSTM Trainer that attaches the output head before moving the whole model with .to(self.device), builds the optimizer afterwards, and moves the CPU frames inside train_step
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/24
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, 3, padding=1)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = self.gates(torch.cat([x, h], 1)).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c


class Seq2Seq(nn.Module):
    def __init__(self, in_ch=1, hid_ch=8):
        super().__init__()
        self.cell = ConvLSTMCell(in_ch, hid_ch)
        self.head = nn.Conv2d(hid_ch, in_ch, 1)

    def forward(self, frames):
        B, T, C, H, W = frames.shape
        h = frames.new_zeros(B, self.cell.hid_ch, H, W)
        c = torch.zeros_like(h)
        for t in range(T):
            h, c = self.cell(frames[:, t], (h, c))
        return self.head(h)


class Trainer:
    def __init__(self, cfg):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Seq2Seq(cfg["in_ch"], cfg["hid_ch"])
        if cfg.get("head_kernel", 1) != 1:
            model.head = nn.Conv2d(cfg["hid_ch"], cfg["in_ch"], cfg["head_kernel"], padding=cfg["head_kernel"] // 2)
        self.model = model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])

    def train_step(self, frames, target):
        frames, target = frames.to(self.device), target.to(self.device)
        loss = nn.functional.mse_loss(self.model(frames), target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = Trainer({"in_ch": 1, "hid_ch": 8, "lr": 1e-3, "head_kernel": 3})
frames = torch.rand(4, 6, 1, 16, 16)
print("loss", trainer.train_step(frames[:, :-1], frames[:, -1]))
