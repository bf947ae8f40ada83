"""Pavement crack segmentation (DeepCrack/DeepSegmentor layout): the dataset thresholds the 8-bit ground-truth image into an int64 0/1 map, and the model's side-output fusion loss, a BCEWithLogitsLoss, receives that Long target
source: https://github.com/yhlleo/DeepSegmentor/pull/7
reported-error: error related to BCEWithLogitsLoss() (data type mismatch in the loss function with PyTorch 1.4.0; fixed by converting the label)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 54
root-cause: line 26
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- data/deepcrack_dataset.py
class DeepCrackDataset(Dataset):
    def __init__(self, n=8, size=32):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
        self.labels = (rng.random((n, size, size)) > 0.9).astype(np.uint8) * 255

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = torch.from_numpy(self.images[i]).permute(2, 0, 1).float() / 255.0
        label = torch.from_numpy((self.labels[i] > 127).astype(np.int64)).unsqueeze(0)  # root-cause
        return {"image": image, "label": label}


# ---- models/deepcrack_networks.py
class DeepCrackNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.side1 = nn.Conv2d(3, 1, 3, padding=1)
        self.side2 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
        self.fuse = nn.Conv2d(2, 1, 1)

    def forward(self, x):
        s1, s2 = self.side1(x), self.side2(x)
        return [s1, s2, self.fuse(torch.cat([s1, s2], 1))]


# ---- models/deepcrack_model.py
class DeepCrackModel:
    def __init__(self):
        self.net = DeepCrackNet()
        self.criterion = nn.BCEWithLogitsLoss()
        self.optimizer = torch.optim.SGD(self.net.parameters(), lr=1e-3, momentum=0.9)

    def optimize_parameters(self, batch):
        outputs = self.net(batch["image"])
        loss = 0
        for out in outputs:
            loss = loss + self.criterion(out, batch["label"])  # fails-here
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DeepCrackModel()
    for batch in DataLoader(DeepCrackDataset(), batch_size=4, shuffle=True):
        print(f"loss {model.optimize_parameters(batch):.4f}")
