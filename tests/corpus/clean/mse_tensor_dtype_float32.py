import numpy as np
import torch


def load_series(n=120):
    t = np.linspace(0, 4 * np.pi, n)
    signal = np.sin(t) + 0.05 * np.cos(7 * t)
    windows = np.stack([signal[i : i + 10] for i in range(n - 11)])
    nxt = signal[10 : n - 1]
    return windows, nxt


windows, nxt = load_series()
inputs = torch.tensor(windows, dtype=torch.float32)
targets = torch.tensor(nxt, dtype=torch.float32).view(-1, 1)

model = torch.nn.Sequential(torch.nn.Linear(10, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
loss_fn = torch.nn.MSELoss()

for epoch in range(25):
    optimizer.zero_grad()
    loss = loss_fn(model(inputs), targets)
    loss.backward()
    optimizer.step()
