"""Image-like classifier whose Dataset wraps every field with torch.tensor(..., dtype=torch.float32)."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class DigitsDataset(Dataset):
    def __init__(self, n=96):
        rng = np.random.default_rng(1)
        self.images = rng.random((n, 1, 8, 8)).astype(np.float32)
        self.targets = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, idx):
        image = torch.tensor(self.images[idx], dtype=torch.float32)
        target = torch.tensor(self.targets[idx], dtype=torch.float32)  # expect: DG006
        return image, target


net = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)
train_loader = DataLoader(DigitsDataset(), batch_size=32, shuffle=True, drop_last=True)

for epoch in range(2):
    net.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = net(data)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
        print(f"Train Epoch: {epoch} [{batch_idx * len(data)}/{len(train_loader.dataset)}]\tLoss: {loss.item():.6f}")
