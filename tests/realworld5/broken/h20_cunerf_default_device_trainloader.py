"""NeRF-style volume trainer whose config object sets the global default device to the training device, then iterates a shuffling DataLoader of sampled rays
source: https://github.com/NarcissusEx/CuNeRF/issues/8
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (raised in RandomSampler.__iter__ while iterating cfg.trainloader)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler calls torch.randperm with its CPU generator while the default device is cuda) at line 41; on CPU: ok
root-cause: line 31
expect: DG003
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class RayDataset(Dataset):
    def __init__(self, n_rays=64, n_samples=16):
        self.n_rays, self.n_samples = n_rays, n_samples

    def __len__(self):
        return self.n_rays

    def __getitem__(self, idx):
        pts = torch.linspace(0, 1, self.n_samples).unsqueeze(-1).repeat(1, 3) * (idx + 1) / self.n_rays
        target = pts.norm(dim=-1).mean().unsqueeze(0)
        return pts, target


class Cfg:
    def __init__(self, args):
        self.device = torch.device("cuda" if torch.cuda.is_available() and not args.cpu else "cpu")
        torch.set_default_device(self.device)  # root-cause
        self.model = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1))
        self.optim = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.trainloader = DataLoader(RayDataset(), batch_size=args.batch_size, shuffle=True)
        self.max_iter = args.max_iter


def train(cfg):
    it = 0
    while it < cfg.max_iter:
        for batch in cfg.trainloader:  # fails-here
            pts, target = (b.to(cfg.device) for b in batch)
            density = cfg.model(pts).squeeze(-1)
            pred = torch.sigmoid(density).mean(-1, keepdim=True)
            loss = nn.functional.mse_loss(pred, target)
            cfg.optim.zero_grad()
            loss.backward()
            cfg.optim.step()
            it += 1
            if it >= cfg.max_iter:
                break
    print("final loss", loss.item())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="train")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--max_iter", type=int, default=10)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args()
    globals()[args.mode](Cfg(args))
