"""Fraud detection: features were carefully cast to float32, the labels were not."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def load_transactions(n=300, seed=3):
    rng = np.random.default_rng(seed)
    amounts = rng.lognormal(size=(n, 1))
    feats = np.hstack([amounts, rng.normal(size=(n, 7))]).astype(np.float32)
    is_fraud = (amounts[:, 0] > 3.0).astype(np.float64)  # expect: DG007
    return feats, is_fraud.reshape(-1, 1)


class FraudNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc2(F.relu(self.fc1(x))))


feats, labels = load_transactions()
x = torch.from_numpy(feats)
t = torch.from_numpy(labels)
net = FraudNet()
opt = torch.optim.SGD(net.parameters(), lr=0.1)

for it in range(50):
    p = net(x)
    loss = F.binary_cross_entropy(p, t)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 10 == 0:
        print(it, float(loss))
