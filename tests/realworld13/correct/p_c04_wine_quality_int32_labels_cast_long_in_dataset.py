"""Wine-quality classifier that still stores LabelEncoder labels as int32 and feeds float64 weights to WeightedRandomSampler (accepted), but the Dataset returns torch.as_tensor(label, dtype=torch.long) and the custom FocalLoss gets int64 targets
source: https://github.com/SeldonIO/alibi-detect/issues/411
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.preprocessing import LabelEncoder, StandardScaler
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler

rng = np.random.default_rng(3)
features = np.column_stack([rng.normal(7, 1, 300), rng.gamma(2, 2, 300), rng.normal(10.5, 1, 300)])
quality = rng.choice(["low", "medium", "medium", "high"], 300)
X = StandardScaler().fit_transform(features).astype(np.float32)
y = LabelEncoder().fit_transform(quality).astype(np.int32)


class WineDataset(Dataset):
    def __len__(self):
        return len(y)

    def __getitem__(self, i):
        return torch.from_numpy(X[i]), torch.as_tensor(y[i], dtype=torch.long)


class FocalLoss(nn.Module):
    def forward(self, logits, target, gamma=2.0):
        ce = F.cross_entropy(logits, target, reduction="none")
        return ((1 - torch.exp(-ce)) ** gamma * ce).mean()


weights = 1.0 / np.bincount(y)[y]
sampler = WeightedRandomSampler(torch.from_numpy(weights), num_samples=len(y))
model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 3))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for xb, yb in DataLoader(WineDataset(), batch_size=32, sampler=sampler):
    loss = FocalLoss()(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"focal loss {loss.item():.4f}")
