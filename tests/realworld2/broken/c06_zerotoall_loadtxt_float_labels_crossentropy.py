"""PyTorchZeroToAll-style Dataset: features and labels both loaded with np.loadtxt(dtype=np.float32), labels fed to CrossEntropyLoss
source: https://github.com/hunkim/PyTorchZeroToAll/issues/38
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 81
root-cause: line 35
expect: DG006
"""
import os
import tempfile

import numpy as np
import torch
from torch.autograd import Variable
from torch.utils.data import DataLoader, Dataset

# write a small multi-class CSV like the reporter's (8 numeric features, class id 0..2 in the last column)
data_dir = tempfile.mkdtemp()
csv_path = os.path.join(data_dir, "train.csv")
rng = np.random.default_rng(0)
raw = rng.normal(size=(90, 8)) * 5 + 10
cls = rng.integers(0, 3, size=(90, 1))
np.savetxt(csv_path, np.hstack([raw, cls]), delimiter=",", fmt="%.4f")


class CustomDataset(Dataset):
    """ Custom dataset: normalized features, class id in the last column."""

    # Initialize your data, download, etc.
    def __init__(self, path):
        xy = np.loadtxt(path, delimiter=",", dtype=np.float32)
        x = xy[:, 0:-1]
        x = (x - x.mean(axis=0)) / x.std(axis=0)
        self.len = xy.shape[0]
        self.x_data = torch.from_numpy(x)
        self.y_data = torch.from_numpy(xy[:, -1])  # root-cause

    def __getitem__(self, index):
        return self.x_data[index], self.y_data[index]

    def __len__(self):
        return self.len


dataset = CustomDataset(csv_path)
train_loader = DataLoader(dataset=dataset, batch_size=32, shuffle=True, num_workers=0)


class Model(torch.nn.Module):

    def __init__(self):
        super(Model, self).__init__()
        self.l1 = torch.nn.Linear(8, 6)
        self.l2 = torch.nn.Linear(6, 4)
        self.l3 = torch.nn.Linear(4, 3)
        self.sigmoid = torch.nn.Sigmoid()

    def forward(self, x):
        out1 = self.sigmoid(self.l1(x))
        out2 = self.sigmoid(self.l2(out1))
        return self.l3(out2)


# our model
model = Model()
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

# Training loop
for epoch in range(2):
    for i, data in enumerate(train_loader, 0):
        # get the inputs
        inputs, labels = data

        # wrap them in Variable
        inputs, labels = Variable(inputs), Variable(labels)

        # Forward pass: Compute predicted y by passing x to the model
        y_pred = model(inputs)

        # Compute and print loss
        loss = criterion(y_pred, labels)  # fails-here
        print(epoch, i, loss.item())

        # Zero gradients, perform a backward pass, and update the weights.
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
