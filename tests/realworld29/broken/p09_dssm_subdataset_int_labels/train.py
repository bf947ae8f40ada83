"""DSSM-style query/document matching classifier (XuXingyu-98/DSSM layout: Data_prepare.py subDataset returns torch.IntTensor labels, model.py towers, train.py loop): the labels arrive as int32 from the dataset module and nn.CrossEntropyLoss in train.py needs int64 class indices
source: https://github.com/XuXingyu-98/DSSM/blob/9e1ff05604a99e65e81bdc4ee225db6f072d7493/Data_prepare.py
reported-error: (the repository file builds label = torch.IntTensor(self.Label[index]); feeding such labels to CrossEntropyLoss fails with RuntimeError: expected target dtype to be Long or Byte, but got Int)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at train.py:30
root-cause: Data_prepare.py:15
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from Data_prepare import subDataset
from model import DSSM

rng = np.random.default_rng(0)
Data = rng.normal(size=(64, 2, 20)).astype(np.float32)  # (query, document) feature pairs
Label = rng.integers(0, 4, size=(64, 1))                # relevance grade 0..3

dataset = subDataset(Data, Label)
dataloader = DataLoader(dataset, batch_size=16, shuffle=True, num_workers=0)

model = DSSM(20, 4)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for i, item in enumerate(dataloader):
        data, label = item
        output = model(data[:, 0], data[:, 1])
        loss = criterion(output, label.squeeze(1))  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
