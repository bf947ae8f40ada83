"""LiDAR range-image segmentation whose remap table is still np.int32 but whose Dataset returns torch.from_numpy(label).long(), so NLLLoss on the clamped log-probabilities gets an int64 class-index target
source: https://github.com/TiagoCortinhal/SalsaNext/issues/54
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

NCLASSES = 5


class SemLaserScan:
    def __init__(self, H=16, W=64, seed=0):
        rng = np.random.default_rng(seed)
        self.proj_range = rng.random((H, W)).astype(np.float32)
        raw = rng.integers(0, 250, (H, W))
        remap = np.arange(250, dtype=np.int32) % NCLASSES
        self.proj_sem_label = remap[raw]


class Parser(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        scan = SemLaserScan(seed=i)
        proj = torch.from_numpy(scan.proj_range).unsqueeze(0)
        proj_labels = torch.from_numpy(scan.proj_sem_label).long()
        return proj, proj_labels


class TinySalsa(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, NCLASSES, 1))

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)


def train_epoch(model, loader):
    criterion = nn.NLLLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for proj, proj_labels in loader:
        output = model(proj)
        loss = criterion(torch.log(output.clamp(min=1e-8)), proj_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    print(f"loss {train_epoch(TinySalsa(), DataLoader(Parser(), batch_size=4)):.3f}")
