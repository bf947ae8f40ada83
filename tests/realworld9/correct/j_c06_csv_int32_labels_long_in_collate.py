"""Apparel CNN whose CSV labels are still read as int32 by pandas, but the DataLoader's collate_fn stacks the labels with torch.as_tensor(..., dtype=torch.long) before CrossEntropyLoss
source: https://github.com/celantur/panoptic_segm_demo/issues/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


def read_train_csv(n=64, seed=0):
    rng = np.random.default_rng(seed)
    csv = "id,label\n" + "\n".join(f"{i},{rng.integers(0, 10)}" for i in range(n))
    return pd.read_csv(io.StringIO(csv), dtype={"label": "int32"})


def collate(batch):
    imgs, labels = zip(*batch)
    return torch.from_numpy(np.stack(imgs)), torch.as_tensor(np.array(labels), dtype=torch.long)


train = read_train_csv()
images = np.random.default_rng(1).random((len(train), 1, 28, 28)).astype("float32")
samples = list(zip(images, train["label"].values))
model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 14 * 14, 10))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(2):
    for x, y in DataLoader(samples, batch_size=16, shuffle=True, collate_fn=collate):
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("epoch", epoch, "loss", loss.item())
