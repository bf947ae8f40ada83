"""Course notebook split into cells-as-functions (update_step, evaluate_step, train_one_epoch): the labels come from a numpy array whose integer dtype is int32 (the Windows default integer), the TensorDataset is split with random_split, and criterion(prediction, label) in update_step fails at the first batch
source: https://github.com/phuijse/MachineLearningBook/issues/1
reported-error: RuntimeError raised at loss = criterion(prediction, label) inside update_step, called from train_one_epoch (cell 25 of torch-training.ipynb)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 29
root-cause: line 16
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, random_split

rng = np.random.default_rng(0)
X = rng.normal(size=(300, 2)).astype(np.float32)
Y = (X[:, 0] * X[:, 1] > 0).astype(np.int32) + (X[:, 0] > 1).astype(np.int32)
dataset = TensorDataset(torch.from_numpy(X), torch.from_numpy(Y))  # root-cause
train_set, valid_set = random_split(dataset, [240, 60], generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train_set, batch_size=32, shuffle=True)
valid_loader = DataLoader(valid_set, batch_size=60)

model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 3))
criterion = nn.CrossEntropyLoss(reduction="sum")
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def update_step(data, label):
    prediction = model(data)
    optimizer.zero_grad()
    loss = criterion(prediction, label)  # fails-here
    loss.backward()
    optimizer.step()
    return loss.item()


def evaluate_step(data, label):
    with torch.no_grad():
        return criterion(model(data), label).item()


def train_one_epoch(epoch):
    train_loss, valid_loss = 0.0, 0.0
    for batchx, batchy in train_loader:
        train_loss += update_step(batchx, batchy)
    for batchx, batchy in valid_loader:
        valid_loss += evaluate_step(batchx, batchy)
    return train_loss / len(train_set), valid_loss / len(valid_set)


for epoch in range(3):
    print(epoch, train_one_epoch(epoch))
