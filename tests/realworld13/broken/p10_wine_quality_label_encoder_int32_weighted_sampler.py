"""Wine-quality classifier: LabelEncoder labels stored with .astype(np.int32) to save memory, class-balanced WeightedRandomSampler, and a custom FocalLoss class whose cross_entropy receives the int32 targets
source: https://github.com/SeldonIO/alibi-detect/issues/411
reported-error: RuntimeError: expected scalar type Long but found Int (labels created as int32 NumPy arrays)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 41
root-cause: line 27
expect: DG006
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.preprocessing import LabelEncoder, StandardScaler
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

rng = np.random.default_rng(3)
lines = ["acidity,sugar,alcohol,quality"]
for _ in range(300):
    lines.append(f"{rng.normal(7, 1):.2f},{rng.gamma(2, 2):.2f},{rng.normal(10.5, 1):.2f},"
                 f"{rng.choice(['low', 'medium', 'medium', 'medium', 'high'])}")
wine = pd.read_csv(io.StringIO("\n".join(lines)))

X = StandardScaler().fit_transform(wine[["acidity", "sugar", "alcohol"]]).astype(np.float32)
encoder = LabelEncoder()
y = encoder.fit_transform(wine["quality"]).astype(np.int32)  # root-cause

class_counts = np.bincount(y)
sample_weights = 1.0 / class_counts[y]
sampler = WeightedRandomSampler(torch.from_numpy(sample_weights), num_samples=len(y), replacement=True)
loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=32, sampler=sampler)


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, reduction="none")  # fails-here
        pt = torch.exp(-ce)
        return ((1 - pt) ** self.gamma * ce).mean()


model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, len(encoder.classes_)))
criterion = FocalLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    for xb, yb in loader:
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: {loss.item():.4f}")
