"""Notebook-style CNN (the "identify the apparels" tutorial the reporter copied): labels are read from the train CSV with pandas and stored as int32 to save memory, wrapped with torch.from_numpy, and the cross-entropy in train(epoch) fails
source: https://github.com/celantur/panoptic_segm_demo/issues/2
reported-error: RuntimeError: expected scalar type Long but found Int (in cross_entropy, at the first call to train(epoch))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 50
root-cause: line 26
expect: DG006
"""
import io

import numpy as np
import pandas as pd
import torch
from torch.nn import Conv2d, CrossEntropyLoss, Linear, MaxPool2d, Module, ReLU, Sequential


def read_train_csv(n=64, seed=0):
    rng = np.random.default_rng(seed)
    csv = "id,label\n" + "\n".join(f"{i},{rng.integers(0, 10)}" for i in range(n))
    return pd.read_csv(io.StringIO(csv), dtype={"label": "int32"})


train = read_train_csv()
train_x = np.random.default_rng(1).random((len(train), 1, 28, 28)).astype("float32")
train_y = train["label"].values
train_x = torch.from_numpy(train_x)
train_y = torch.from_numpy(train_y)  # root-cause


class Net(Module):
    def __init__(self):
        super().__init__()
        self.cnn_layers = Sequential(Conv2d(1, 4, 3, padding=1), ReLU(), MaxPool2d(2), Conv2d(4, 4, 3, padding=1), ReLU(), MaxPool2d(2))
        self.linear_layers = Sequential(Linear(4 * 7 * 7, 10))

    def forward(self, x):
        x = self.cnn_layers(x)
        return self.linear_layers(x.view(x.size(0), -1))


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=0.07)
criterion = CrossEntropyLoss()
train_losses = []


def train(epoch):
    model.train()
    optimizer.zero_grad()
    output_train = model(train_x)
    loss_train = criterion(output_train, train_y)  # fails-here
    train_losses.append(loss_train.item())
    loss_train.backward()
    optimizer.step()


n_epochs = 3
for epoch in range(n_epochs):
    print("train for epoch:", epoch)
    train(epoch)
