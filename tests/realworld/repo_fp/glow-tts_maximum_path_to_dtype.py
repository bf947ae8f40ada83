"""Glow-TTS turns its int32 alignment path back into the score's dtype before the matmul

source: https://github.com/jaywalnut310/glow-tts/blob/13e997689d643410f5d9f1f9a73877ae85e19bc2/monotonic_align/__init__.py#L21
(reported there and, as a copy, at https://github.com/jaywalnut310/glow-tts/blob/13e997689d643410f5d9f1f9a73877ae85e19bc2/init.py#L51;
the matmul is models.py#L313)
false-alarm: DG005 at line 41 (the matmul is line 119): `maximum_path` keeps `dtype = value.dtype`
while `value` is still the float32 score tensor, then rebinds `value` to a NumPy array and builds an int32
`path`; `torch.from_numpy(path).to(device=device, dtype=dtype)` casts the path to that float32 dtype, so the
`torch.matmul(attn, x_m)` that follows multiplies float32 by float32. This reduction runs on the CPU (exit 0).
"""
# Reduction: the Cython kernel maximum_path_c is replaced by a Python loop that fills `path` in place the same
# way (one aligned text position per frame); the text encoder is an embedding and two 1x1 convs; the flow decoder
# keeps FlowSpecDecoder.forward's loop over a ModuleList of flows (ActNorm and an invertible 1x1 conv here), whose
# output is what the score `logp` is computed from (the finding goes away when `logp` uses only the encoder's
# outputs). init.py's data-dependent-initialisation pass (one forward, gen=False) is kept, on the CPU instead of
# `.cuda()`.
import math

import numpy as np
import torch
import torch.nn as nn


def maximum_path_c(path, value, t_x_max, t_y_max):
    for b in range(path.shape[0]):
        for y in range(t_y_max[b]):
            path[b, min(y * t_x_max[b] // t_y_max[b], t_x_max[b] - 1), y] = 1


def maximum_path(value, mask):
    value = value * mask
    device = value.device
    dtype = value.dtype
    value = value.data.cpu().numpy().astype(np.float32)
    path = np.zeros_like(value).astype(np.int32)
    mask = mask.data.cpu().numpy()

    t_x_max = mask.sum(1)[:, 0].astype(np.int32)
    t_y_max = mask.sum(2)[:, 0].astype(np.int32)
    maximum_path_c(path, value, t_x_max, t_y_max)
    return torch.from_numpy(path).to(device=device, dtype=dtype)


class ActNorm(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.logs = nn.Parameter(torch.zeros(1, channels, 1))
        self.bias = nn.Parameter(torch.zeros(1, channels, 1))

    def forward(self, x, x_mask, reverse=False):
        if not reverse:
            z = (self.bias + torch.exp(self.logs) * x) * x_mask
            logdet = torch.sum(self.logs) * torch.sum(x_mask, [1, 2])
        else:
            z = (x - self.bias) * torch.exp(-self.logs) * x_mask
            logdet = None
        return z, logdet


class InvConv(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.weight = nn.Parameter(torch.linalg.qr(torch.randn(channels, channels))[0])

    def forward(self, x, x_mask, reverse=False):
        weight = self.weight if not reverse else torch.inverse(self.weight)
        z = torch.matmul(weight, x) * x_mask
        logdet = torch.logdet(self.weight) * torch.sum(x_mask, [1, 2]) if not reverse else None
        return z, logdet


class FlowSpecDecoder(nn.Module):
    def __init__(self, in_channels, n_blocks=2):
        super().__init__()
        self.flows = nn.ModuleList()
        for b in range(n_blocks):
            self.flows.append(ActNorm(in_channels))
            self.flows.append(InvConv(in_channels))

    def forward(self, x, x_mask, reverse=False):
        if not reverse:
            flows = self.flows
            logdet_tot = 0
        else:
            flows = reversed(self.flows)
            logdet_tot = None
        for f in flows:
            if not reverse:
                x, logdet = f(x, x_mask, reverse=reverse)
                logdet_tot += logdet
            else:
                x, logdet = f(x, x_mask, reverse=reverse)
        return x, logdet_tot


class FlowGenerator(nn.Module):
    def __init__(self, n_vocab=10, hidden_channels=8, out_channels=4):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, hidden_channels)
        self.proj_m = nn.Conv1d(hidden_channels, out_channels, 1)
        self.proj_s = nn.Conv1d(hidden_channels, out_channels, 1)
        self.decoder = FlowSpecDecoder(out_channels)

    def forward(self, x, x_lengths, y, y_lengths):
        h = self.emb(x).transpose(1, 2)
        x_m, x_logs = self.proj_m(h), self.proj_s(h)
        x_mask = torch.ones(x.size(0), 1, x.size(1))
        z_mask = torch.ones(y.size(0), 1, y.size(2))
        attn_mask = torch.unsqueeze(x_mask, -1) * torch.unsqueeze(z_mask, 2)
        z, logdet = self.decoder(y, z_mask, reverse=False)
        with torch.no_grad():
            x_s_sq_r = torch.exp(-2 * x_logs)
            logp1 = torch.sum(-0.5 * math.log(2 * math.pi) - x_logs, [1]).unsqueeze(-1)
            logp2 = torch.matmul(x_s_sq_r.transpose(1, 2), -0.5 * (z ** 2))
            logp3 = torch.matmul((x_m * x_s_sq_r).transpose(1, 2), z)
            logp4 = torch.sum(-0.5 * (x_m ** 2) * x_s_sq_r, [1]).unsqueeze(-1)
            logp = logp1 + logp2 + logp3 + logp4
            attn = maximum_path(logp, attn_mask.squeeze(1)).unsqueeze(1).detach()
        z_m = torch.matmul(attn.squeeze(1).transpose(1, 2), x_m.transpose(1, 2)).transpose(1, 2)
        return z, z_m


def main():
    generator = FlowGenerator()
    x, x_lengths = torch.randint(0, 10, (2, 5)), torch.tensor([5, 5])
    y, y_lengths = torch.randn(2, 4, 7), torch.tensor([7, 7])
    _ = generator(x, x_lengths, y, y_lengths)
    print(_[1].dtype, _[1].shape)


if __name__ == "__main__":
    main()
