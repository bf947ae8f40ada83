import numpy as np
import torch
import torch.nn as nn


class Recommender(nn.Module):
    def __init__(self, n_users=50, n_items=40, dim=8):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)

    def forward(self, user_ids, item_ids):
        return (self.users(user_ids) * self.items(item_ids)).sum(dim=1)


def load_ratings(n=300):
    rng = np.random.default_rng(4)
    table = np.column_stack([rng.integers(0, 50, n), rng.integers(0, 40, n), rng.uniform(1, 5, n)])
    return torch.tensor(table, dtype=torch.float32)  # ids end up as float32 columns


ratings = load_ratings()
users, items, stars = ratings[:, 0], ratings[:, 1], ratings[:, 2]  # expect: DG005 (the id columns need .long())
model = Recommender()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(5):
    opt.zero_grad()
    pred = model(users, items)
    loss = nn.functional.mse_loss(pred, stars)
    loss.backward()
    opt.step()
