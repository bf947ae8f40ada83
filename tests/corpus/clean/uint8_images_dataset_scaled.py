import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class PixelDataset(Dataset):
    def __init__(self, n=96):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, size=(n, 28, 28, 1), dtype=np.uint8)  # HWC, like PIL
        self.labels = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        img = torch.from_numpy(self.images[i]).permute(2, 0, 1).float().div(255.0)
        return img, torch.tensor(self.labels[i], dtype=torch.long)


model = nn.Sequential(
    nn.Conv2d(1, 4, 5), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(4 * 12 * 12, 10),
)
loader = DataLoader(PixelDataset(), batch_size=32, shuffle=True)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for imgs, labels in loader:
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(imgs), labels)
    loss.backward()
    optimizer.step()
