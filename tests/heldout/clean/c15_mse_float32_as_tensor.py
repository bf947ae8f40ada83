"""Regression where every NumPy array enters torch through torch.as_tensor(..., dtype=torch.float32)."""
import numpy as np
import torch
import torch.nn as nn


def load_split(n, rng):
    X = rng.uniform(0, 1, size=(n, 4))
    y = np.sin(X.sum(1, keepdims=True) * 3)
    return torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y, dtype=torch.float32)


rng = np.random.default_rng(11)
X_train, y_train = load_split(256, rng)
X_val, y_val = load_split(64, rng)

model = nn.Sequential(nn.Linear(4, 32), nn.SiLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
mse = nn.MSELoss()

for epoch in range(5):
    model.train()
    optimizer.zero_grad()
    loss = mse(model(X_train), y_train)
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        val = mse(model(X_val), y_val)
    print(f"epoch {epoch}: train {loss.item():.4f} val {val.item():.4f}")
