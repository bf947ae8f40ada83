"""Point-cloud diffusion refinement: the Dataset loads partial/complete clouds saved as .npy (float64, as written by the preprocessing script) and torch.from_numpy keeps float64; the PointNet-style Conv1d denoiser rejects the double input on the first training step
source: https://github.com/ZhaoyangLyu/Point_Diffusion_Refinement/issues/13
reported-error: RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same.
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 53
root-cause: line 40
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- scripts/preprocess.py
def write_clouds(root, n=24, points=256, seed=0):
    rng = np.random.default_rng(seed)
    for k in range(n):
        theta = rng.uniform(0, 2 * np.pi, points)
        z = rng.uniform(-1, 1, points)
        r = np.sqrt(1 - z ** 2)
        complete = np.stack([r * np.cos(theta), r * np.sin(theta), z], 1) * rng.uniform(0.5, 1.5)
        np.save(os.path.join(root, f"{k:03d}_complete.npy"), complete)
        np.save(os.path.join(root, f"{k:03d}_partial.npy"), complete[complete[:, 2] > -0.3])


# ---- dataset/shapenet_completion.py
class CompletionDataset(Dataset):
    def __init__(self, root):
        self.root = root
        self.ids = sorted({f.split("_")[0] for f in os.listdir(root)})

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        complete = np.load(os.path.join(self.root, f"{self.ids[i]}_complete.npy"))
        return torch.from_numpy(complete).transpose(0, 1)  # root-cause


# ---- models/pointnet_denoiser.py
class PointDenoiser(nn.Module):
    def __init__(self, T=100, hidden=64):
        super().__init__()
        self.t_embed = nn.Embedding(T, hidden)
        self.conv1 = nn.Conv1d(3, hidden, 1)
        self.conv2 = nn.Conv1d(hidden, hidden, 1)
        self.out = nn.Conv1d(2 * hidden, 3, 1)

    def forward(self, x, t):
        h = torch.relu(self.conv1(x))  # fails-here
        h = torch.relu(self.conv2(h + self.t_embed(t).unsqueeze(-1)))
        g = h.max(-1, keepdim=True).values.expand_as(h)
        return self.out(torch.cat([h, g], 1))


def main():
    root = tempfile.mkdtemp()
    write_clouds(root)
    loader = DataLoader(CompletionDataset(root), batch_size=8, shuffle=True)
    T = 100
    betas = torch.linspace(1e-4, 0.02, T)
    alpha_bar = torch.cumprod(1 - betas, 0)
    model = PointDenoiser(T)
    opt = torch.optim.Adam(model.parameters(), lr=2e-4)
    for x0 in loader:
        t = torch.randint(0, T, (x0.shape[0],))
        noise = torch.randn_like(x0)
        a = alpha_bar[t].view(-1, 1, 1)
        xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
        loss = ((model(xt, t) - noise) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
