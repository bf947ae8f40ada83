"""Multi-label classifier whose BCEWithLogitsLoss pos_weight is still computed on the CPU by a helper, but the criterion module is moved with .to(device) (pos_weight is a registered buffer), like the model and the batches
source: https://dev-solve.com/posts/3f078da
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_criterion(train_labels):
    positives = train_labels.sum(0)
    pos_weight = torch.tensor((len(train_labels) - positives) / np.maximum(positives, 1), dtype=torch.float32)
    return nn.BCEWithLogitsLoss(pos_weight=pos_weight)


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
rng = np.random.default_rng(0)
token_ids = torch.from_numpy(rng.integers(0, 500, (128, 20)))
labels = (rng.random((128, 4)) < [0.3, 0.1, 0.05, 0.2]).astype(np.float32)
loader = DataLoader(TensorDataset(token_ids, torch.from_numpy(labels)), batch_size=16, shuffle=True)
model = nn.Sequential(nn.EmbeddingBag(500, 32, mode="mean"), nn.Linear(32, 4)).to(device)
criterion = build_criterion(labels).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, pos_weight on {criterion.pos_weight.device}")
