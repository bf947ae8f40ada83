"""eBay 2022 delivery-time FNN (chungdz/ebay2022 layout), fixed: config.dl.FNNData converts the pandas frame with .values.astype(np.float32) before torch.tensor, so the concatenated (x, y) rows and the batches are float32 like the FNN
source: https://github.com/chungdz/ebay2022/blob/55b03b9694d9d2088ca16cbd6ca583aea5054c6c/config/dl.py
reported-error: (none: the float32 conversion happens in the data module, three calls away from the model)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from config.dl import FNNData
from modules.fnn import FNN

tmp = tempfile.mkdtemp()
train_path = os.path.join(tmp, "train.tsv")
rng = np.random.default_rng(0)
n = 256
df = pd.DataFrame(rng.normal(size=(n, 10)), columns=[f"f{i}" for i in range(10)])
df.insert(0, "record_number", np.arange(n))
df["target"] = rng.integers(1, 10, size=n).astype(float)
df.to_csv(train_path, sep="\t", index=False)

trainset = FNNData(train_path)
train_loader = DataLoader(trainset, batch_size=32, shuffle=True)
model = FNN(trainset.__feature_len__())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.L1Loss()

for epoch in range(2):
    model.train()
    for data in train_loader:
        x, y = data[:, :-1], data[:, -1:]
        pred = model(x)
        loss = loss_fn(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} L1 {loss.item():.3f}")
