"""Dataset built from a pandas float64 frame returns numpy scalars as targets; default collate makes them float64
source: https://github.com/pytorch/pytorch/issues/1773
reported-error: silent (reporter saw torch.DoubleTensor targets coming out of the DataLoader despite .float())
outcome: ok (silent: the MSELoss is computed in float64 because the target batch is float64; no error)
root-cause: line 28
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.utils.data as data_utils

rng = np.random.default_rng(0)
df = pd.DataFrame({"A": rng.random(200), "B": rng.random(200), "C": rng.random(200)})
print(df.dtypes)


class FrameDataset(data_utils.Dataset):
    def __init__(self, df):
        self.X = torch.from_numpy(df[['A', 'B']].values).float()
        self.y = df['C'].values

    def __len__(self):
        return len(self.X)

    def __getitem__(self, idx):
        return self.X[idx], self.y[idx]  # root-cause


train_set = FrameDataset(df)
train_set_loader = data_utils.DataLoader(train_set, batch_size=50, shuffle=True)

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
    print(epoch, loss.dtype, loss.item())
