"""Labels come from a label-encoder style mapping stored as np.int32 to save RAM."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SPECIES = ["setosa", "versicolor", "virginica"]


def encode_labels(names):
    lookup = {name: i for i, name in enumerate(SPECIES)}
    return np.array([lookup[n] for n in names], dtype=np.int32)  # expect: DG006 (reported where int32 is chosen)


def load_iris_like(n=150, seed=0):
    rng = np.random.default_rng(seed)
    names = rng.choice(SPECIES, size=n)
    feats = rng.normal(size=(n, 4)).astype(np.float32)
    return feats, encode_labels(names)


X_np, y_np = load_iris_like()
X = torch.from_numpy(X_np)
y = torch.from_numpy(y_np)

model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-2)

for epoch in range(20):
    logits = model(X)
    loss = F.cross_entropy(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        acc = (logits.argmax(1) == y).float().mean().item()
        print(f"epoch {epoch} loss {loss.item():.3f} acc {acc:.2f}")
