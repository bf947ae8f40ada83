"""Dataset whose __getitem__ wraps NumPy rows with torch.tensor(..., dtype=torch.float32)
and the label with torch.tensor(int) (-> int64)."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class WineLike(Dataset):
    def __init__(self, n=180):
        rng = np.random.default_rng(5)
        self.features = rng.normal(size=(n, 11))
        self.quality = rng.integers(0, 3, size=n)

    def __len__(self):
        return len(self.quality)

    def __getitem__(self, idx):
        x = torch.tensor(self.features[idx], dtype=torch.float32)
        y = torch.tensor(int(self.quality[idx]))
        return x, y


loader = DataLoader(WineLike(), batch_size=30, shuffle=True, num_workers=0)
model = nn.Sequential(nn.Linear(11, 22), nn.ReLU(), nn.Linear(22, 3))
criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 1.0]))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for i, (x, y) in enumerate(loader):
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % 3 == 0:
            print(f"epoch {epoch} iter {i} loss {loss.item():.4f}")
