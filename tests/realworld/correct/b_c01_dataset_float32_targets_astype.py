"""Fixed pytorch#1773: the Dataset converts the float64 frame with .astype(np.float32) before torch.from_numpy
source: https://github.com/pytorch/pytorch/issues/1773
reported-error: silent (float64 targets from the DataLoader)
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.utils.data as data_utils

rng = np.random.default_rng(0)
df = pd.DataFrame({"A": rng.random(200), "B": rng.random(200), "C": rng.random(200)})


class FrameDataset(data_utils.Dataset):
    def __init__(self, df):
        self.X = torch.from_numpy(df[['A', 'B']].values.astype(np.float32))
        self.y = torch.from_numpy(df['C'].values.astype(np.float32))

    def __len__(self):
        return len(self.X)

    def __getitem__(self, idx):
        return self.X[idx], self.y[idx]


train_set_loader = data_utils.DataLoader(FrameDataset(df), batch_size=50, shuffle=True)
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.MSELoss()

for epoch in range(2):
    for inputs, target in train_set_loader:
        optimizer.zero_grad()
        output = model(inputs).squeeze(1)
        loss = criterion(output, target)
        loss.backward()
        optimizer.step()
    assert loss.dtype == torch.float32
    print(epoch, loss.item())
