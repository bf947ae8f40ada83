"""Physics-informed network (NeuralSolvers-style InitialCondition): the initial-condition dataset casts the collocation points to float32 but keeps the numpy target u0 in float64, so the MSE of the initial condition is computed in double
source: https://github.com/Photon-AI-Research/NeuralSolvers/issues/20
reported-error: UserWarning: Using a target size (torch.Size([batch_size])) that is different to the input size (torch.Size([batch_size, 1])) (fixed with prediction = model(x).reshape(-1); the float64 target stays)
outcome: ok (silent: the initial-condition loss computed at line 37 is float64, printed as "loss dtype torch.float64"; the whole loss and its backward run in double next to float32 weights)
root-cause: line 20
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class InitialConditionDataset(Dataset):
    def __init__(self, n0=256, seed=0):
        rng = np.random.default_rng(seed)
        x = rng.uniform(-1, 1, (n0, 1))
        t = np.zeros((n0, 1))
        self.x = torch.from_numpy(np.hstack([x, t])).float()
        self.u0 = torch.from_numpy(-np.sin(np.pi * x[:, 0]))  # root-cause

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.u0[idx]


class InitialCondition:
    def __init__(self, dataset, weight=1.0):
        self.dataset = dataset
        self.weight = weight
        self.loss = nn.MSELoss()

    def __call__(self, x, model, gt_y):
        prediction = model(x).reshape(-1)
        return self.weight * self.loss(prediction, gt_y)  # fails-here


class MLP(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)


def fit(model, ic, epochs=3, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loader = DataLoader(ic.dataset, batch_size=64, shuffle=True)
    for epoch in range(epochs):
        for x, u0 in loader:
            loss = ic(x, model, u0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: initial-condition loss {loss.item():.5f}, loss dtype {loss.dtype}")


fit(MLP(), InitialCondition(InitialConditionDataset()))
