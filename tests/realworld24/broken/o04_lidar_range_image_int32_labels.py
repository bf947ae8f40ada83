"""LiDAR range-image segmentation (SalsaNext-style trainer): the scan parser stores the projected semantic labels as np.int32 (the remap table's dtype), the Dataset returns them with torch.from_numpy, and the trainer's NLLLoss on log-probabilities gets an int32 target
source: https://github.com/TiagoCortinhal/SalsaNext/issues/54
reported-error: Long type expected, Int provided (trainer.py: loss_m = criterion(torch.log(output.clamp(min=1e-8)), proj_labels) needs proj_labels.long())
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 57
root-cause: line 23
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

NCLASSES = 5


# ---- common/laserscan.py
class SemLaserScan:
    def __init__(self, H=16, W=64, seed=0):
        rng = np.random.default_rng(seed)
        self.proj_range = rng.random((H, W)).astype(np.float32)
        raw = rng.integers(0, 250, (H, W))
        remap = np.arange(250, dtype=np.int32) % NCLASSES
        self.proj_sem_label = remap[raw]  # root-cause


class Parser(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        scan = SemLaserScan(seed=i)
        proj = torch.from_numpy(scan.proj_range).unsqueeze(0)
        proj_labels = torch.from_numpy(scan.proj_sem_label)
        return proj, proj_labels


# ---- tasks/semantic/modules/SalsaNext.py
class TinySalsa(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, NCLASSES, 1))

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)


# ---- tasks/semantic/modules/trainer.py
class Trainer:
    def __init__(self):
        self.model = TinySalsa()
        self.criterion = nn.NLLLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)

    def train_epoch(self, loader):
        for proj, proj_labels in loader:
            output = self.model(proj)
            loss_m = self.criterion(torch.log(output.clamp(min=1e-8)), proj_labels)  # fails-here
            self.optimizer.zero_grad()
            loss_m.backward()
            self.optimizer.step()
        return loss_m.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    loss = Trainer().train_epoch(DataLoader(Parser(), batch_size=4))
    print(f"loss {loss:.3f}")
