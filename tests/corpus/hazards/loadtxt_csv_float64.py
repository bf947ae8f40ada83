import io

import numpy as np
import torch
from torch import nn

CSV = """sqft,rooms,age,price
1200,3,20,250
1500,4,15,320
800,2,40,150
2000,4,5,480
950,2,30,190
"""


def load_housing(text):
    table = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1)
    features = (table[:, :3] - table[:, :3].mean(0)) / table[:, :3].std(0)
    prices = table[:, 3:] / 100.0
    return torch.tensor(features), torch.tensor(prices, dtype=torch.float32)  # expect: DG004


X, y = load_housing(CSV)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(100):
    opt.zero_grad()
    loss = nn.MSELoss()(model(X), y)
    loss.backward()
    opt.step()
