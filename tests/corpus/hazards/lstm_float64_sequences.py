import numpy as np
import torch
from torch import nn


class Forecaster(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.lstm = nn.LSTM(input_size=1, hidden_size=hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, seq):
        out, _ = self.lstm(seq)
        return self.head(out[:, -1])


def sliding_windows(series, width):
    xs = np.stack([series[i : i + width] for i in range(len(series) - width)])
    ys = series[width:]
    return torch.from_numpy(xs[..., None]), torch.from_numpy(ys[:, None]).float()  # expect: DG004


series = np.sin(np.arange(200) * 0.1)
x, y = sliding_windows(series, width=12)
model = Forecaster()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
