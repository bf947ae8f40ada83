"""Medical-volume NeRF trainer (Cfg object pattern) whose init_device() sets torch.set_default_tensor_type("torch.cuda.FloatTensor") when a GPU exists; get_loaders(cfg) then builds a DataLoader(shuffle=True) whose RandomSampler draws torch.randperm on CUDA with a CPU generator
source: https://duoke360.com/post/34410
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator; not run on a GPU here) at line 52; on CPU: ok
root-cause: line 25
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Cfg:
    def __init__(self):
        self.batch_size = 64
        self.n_rays = 512
        self.lr = 1e-3
        self.iters = 2
        self.device = init_device()


def init_device():
    if torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


class RayDataset(Dataset):
    def __init__(self, n):
        rng = np.random.default_rng(0)
        self.coords = rng.uniform(-1, 1, size=(n, 3)).astype(np.float32)
        self.intensity = np.linalg.norm(self.coords, axis=1, keepdims=True).astype(np.float32)

    def __len__(self):
        return len(self.coords)

    def __getitem__(self, i):
        return self.coords[i], self.intensity[i]


def get_loaders(cfg):
    return DataLoader(RayDataset(cfg.n_rays), batch_size=cfg.batch_size, shuffle=True)


def train(cfg):
    field = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1)).to(cfg.device)
    optim = torch.optim.Adam(field.parameters(), lr=cfg.lr)
    loader = get_loaders(cfg)
    for it in range(cfg.iters):
        for coords, target in loader:  # fails-here
            coords, target = coords.to(cfg.device), target.to(cfg.device)
            loss = nn.functional.mse_loss(field(coords), target)
            optim.zero_grad()
            loss.backward()
            optim.step()
        print("iter", it, "loss", round(loss.item(), 4))


train(Cfg())
