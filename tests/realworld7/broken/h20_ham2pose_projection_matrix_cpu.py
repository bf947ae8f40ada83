"""Text-to-pose transformer: the pose decoder builds a fixed projection matrix with torch.tensor inside forward (CPU) and multiplies the CUDA hidden states by it
source: https://github.com/rotem-shalev/Ham2Pose/pull/6
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (torch.mm of the CUDA hidden states with the CPU projection) at line 33; on CPU: ok
root-cause: line 26
expect: DG009
"""
import math

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class PoseDecoder(nn.Module):
    def __init__(self, hidden_dim=32, num_keypoints=8):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.num_keypoints = num_keypoints
        self.step_encoder = nn.GRUCell(hidden_dim, hidden_dim)

    def fixed_projection(self):
        angles = [2 * math.pi * k / self.num_keypoints for k in range(self.num_keypoints)]
        rows = [[math.cos((i + 1) * a) for a in angles] + [math.sin((i + 1) * a) for a in angles] for i in range(self.hidden_dim)]
        return torch.tensor(rows) / math.sqrt(self.hidden_dim)  # root-cause

    def forward(self, text_encoding, steps=4):
        h = torch.zeros_like(text_encoding)
        poses = []
        for _ in range(steps):
            h = self.step_encoder(text_encoding, h)
            xy = torch.mm(h, self.fixed_projection())  # fails-here
            poses.append(xy.view(-1, 2, self.num_keypoints).transpose(1, 2))
        return torch.stack(poses, dim=1)


class Ham2Pose(nn.Module):
    def __init__(self, vocab=64, hidden_dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden_dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(hidden_dim, 4, 64, batch_first=True), 1)
        self.decoder = PoseDecoder(hidden_dim)

    def forward(self, tokens):
        return self.decoder(self.encoder(self.embed(tokens)).mean(1))


model = Ham2Pose().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
tokens = torch.randint(0, 64, (4, 10), device=device)
target = torch.zeros(4, 4, 8, 2, device=device)
for step in range(2):
    loss = nn.functional.mse_loss(model(tokens), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
