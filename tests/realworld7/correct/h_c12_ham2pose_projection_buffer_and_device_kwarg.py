"""Text-to-pose model whose fixed projection is a registered buffer (it follows .to(device)) and whose per-step tensors are created with device=h.device
source: https://github.com/rotem-shalev/Ham2Pose/pull/6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class PoseDecoder(nn.Module):
    def __init__(self, hidden_dim=32, num_keypoints=8):
        super().__init__()
        angles = torch.arange(num_keypoints) * (2 * math.pi / num_keypoints)
        freqs = torch.arange(1, hidden_dim + 1)[:, None]
        self.register_buffer("projection", torch.cat([torch.cos(freqs * angles), torch.sin(freqs * angles)], 1) / math.sqrt(hidden_dim))
        self.cell = nn.GRUCell(hidden_dim, hidden_dim)
        self.num_keypoints = num_keypoints

    def forward(self, enc, steps=4):
        h = torch.zeros(enc.shape, device=enc.device)
        poses = []
        for _ in range(steps):
            h = self.cell(enc, h)
            poses.append(torch.mm(h, self.projection).view(-1, 2, self.num_keypoints))
        return torch.stack(poses, 1)


model = nn.ModuleDict({"embed": nn.Embedding(64, 32), "decoder": PoseDecoder()}).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
tokens = torch.randint(0, 64, (4, 10)).to(device)
for step in range(2):
    poses = model["decoder"](model["embed"](tokens).mean(1))
    loss = poses.pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
