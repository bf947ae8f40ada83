"""Segmentation Dataset that still divides by 255. in NumPy (float64) in __getitem__, but the training loop converts each batch with .float() when moving it to the device
source: https://github.com/eriklindernoren/PyTorch-YOLOv3/issues/523
reported-error: none (fixed version: the batch is cast to float32 before the forward pass)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class DetectDataset(Dataset):
    def __init__(self, n=16, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.gt = rng.integers(0, 256, (n, size, size), dtype=np.uint8)
        self.label = (rng.random((n, size, size)) > 0.5).astype(np.uint8) * 255

    def __len__(self):
        return len(self.gt)

    def __getitem__(self, idx):
        gt = np.expand_dims(self.gt[idx] / 255.0, 0)
        labels = np.expand_dims(self.label[idx] / 255.0, 0)
        return torch.from_numpy(gt), torch.from_numpy(labels)


class Net(nn.Module):
    def __init__(self, img_size=32):
        super().__init__()
        self.fc1 = nn.Linear(img_size * img_size, 64)
        self.fc2 = nn.Linear(64, img_size * img_size)
        self.img_size = img_size

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x.flatten(1)))).view(-1, 1, self.img_size, self.img_size)


def train(model, loader, device, epochs=1):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for batch_i, (imgs, targets) in enumerate(loader):
            imgs = imgs.to(device).float()
            targets = targets.to(device).float()
            loss = criterion(model(imgs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"[Epoch {epoch}, Batch {batch_i}] loss {loss.item():.4f}")


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train(Net().to(device), DataLoader(DetectDataset(), batch_size=4, shuffle=True), device)
