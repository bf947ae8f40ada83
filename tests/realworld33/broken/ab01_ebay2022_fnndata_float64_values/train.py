"""eBay 2022 delivery-time FNN (chungdz/ebay2022 layout: modules/fnn_train.py builds config.dl.FNNData from the parsed tsv and trains modules.fnn.FNN): the dataset turns the pandas feature frame into a tensor with torch.tensor(df.values), which keeps float64, and the float32 FNN's first Linear refuses the batch
source: https://github.com/chungdz/ebay2022/blob/55b03b9694d9d2088ca16cbd6ca583aea5054c6c/config/dl.py
reported-error: (the repository file builds self.x with torch.FloatTensor(...values); the torch.tensor(...values) variant keeps the frame's float64 and fails with RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at modules/fnn.py:14
root-cause: config/dl.py:9
expect: DG004
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
