"""Conv1d + LSTM over sensor sequences generated in NumPy as float32."""
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class Sequences(Dataset):
    def __init__(self, n=64, length=30, channels=3):
        rng = np.random.default_rng(2)
        self.x = rng.standard_normal((n, channels, length)).astype(np.float32)
        self.y = (self.x[:, 0].mean(axis=1) > 0).astype(np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])


class ConvLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 8, kernel_size=5, padding=2)
        self.lstm = nn.LSTM(8, 16, batch_first=True)
        self.fc = nn.Linear(16, 2)

    def forward(self, x):
        h = torch.relu(self.conv(x)).transpose(1, 2)
        out, _ = self.lstm(h)
        return self.fc(out[:, -1])


model = ConvLSTM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(2):
    for x, y in DataLoader(Sequences(), batch_size=16, shuffle=True):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, loss.item())
