import numpy as np
import torch
import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self, n_categories, n_numeric):
        super().__init__()
        self.cat_emb = nn.Embedding(n_categories, 4)
        self.mlp = nn.Sequential(nn.Linear(4 + n_numeric, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, cat_idx, numeric):
        return self.mlp(torch.cat([self.cat_emb(cat_idx), numeric], dim=1))


rng = np.random.default_rng(8)
cities = rng.integers(0, 12, size=250)
numeric = rng.normal(size=(250, 3))
price = (numeric.sum(axis=1) + cities * 0.1)[:, None]

cat_t = torch.as_tensor(cities, dtype=torch.long)
num_t = torch.as_tensor(numeric, dtype=torch.float32)
price_t = torch.as_tensor(price, dtype=torch.float32)

net = TabularNet(12, 3)
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
for epoch in range(10):
    opt.zero_grad()
    loss = nn.functional.l1_loss(net(cat_t, num_t), price_t)
    loss.backward()
    opt.step()
