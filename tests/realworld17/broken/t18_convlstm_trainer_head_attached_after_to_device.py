"""Precipitation-nowcasting ConvLSTM Trainer: __init__ moves the encoder to self.device, then set_output_head(cfg) attaches a fresh Conv2d output head to the already-moved model, so on a GPU the head's weights stay on the CPU while the frames are on cuda
source: https://github.com/tsugumi-sys/SA-ConvLSTM-Pytorch/pull/24
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (the output head added after model.to(device) stays on the CPU; not run on a GPU here) at line 38; on CPU: ok
root-cause: line 49
expect: DG009
"""
import torch
import torch.nn as nn


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = self.gates(torch.cat([x, h], 1)).chunk(4, 1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class Seq2Seq(nn.Module):
    def __init__(self, in_ch=1, hid_ch=8):
        super().__init__()
        self.cell = ConvLSTMCell(in_ch, hid_ch)
        self.head = None

    def forward(self, frames):
        B, T, C, H, W = frames.shape
        h = frames.new_zeros(B, self.cell.hid_ch, H, W)
        c = torch.zeros_like(h)
        for t in range(T):
            h, c = self.cell(frames[:, t], (h, c))
        return self.head(h)  # fails-here


class Trainer:
    def __init__(self, cfg):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = Seq2Seq(cfg["in_ch"], cfg["hid_ch"]).to(self.device)
        self.set_output_head(cfg)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])

    def set_output_head(self, cfg):
        self.model.head = nn.Conv2d(cfg["hid_ch"], cfg["in_ch"], 1)  # root-cause

    def train_step(self, frames, target):
        frames, target = frames.to(self.device), target.to(self.device)
        loss = nn.functional.mse_loss(self.model(frames), target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = Trainer({"in_ch": 1, "hid_ch": 8, "lr": 1e-3})
frames = torch.rand(4, 6, 1, 16, 16)
print("loss", trainer.train_step(frames[:, :-1], frames[:, -1]))
