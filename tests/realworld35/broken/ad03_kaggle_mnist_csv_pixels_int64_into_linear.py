"""Kaggle digit-recognizer MLP trained from train.csv (AlmirNeeto99/kaggle-mnist-digit-recognizer main.py: MNISTDatasetReader splits the pandas frame, MNISTDataset turns a row into (label, pixels), MNISTClassifier = 784-1568-512-10 Linear stack, one-hot targets from decodeLabel): the variant's MNISTDataset.__getitem__ builds the pixel tensor from the row's integer values without dtype=float32, so the batch is int64 and the first Linear refuses it
source: https://github.com/AlmirNeeto99/kaggle-mnist-digit-recognizer/blob/05984f814c5820b02959dc5891e00d236dae8641/main.py
reported-error: (none filed; the repository's MNISTDataset passes dtype=float32; the variant's integer pixel tensor fails in h1)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 81
root-cause: line 47
expect: DG005
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
from torch import tensor
from torch.utils.data import DataLoader, Dataset


# ---- MNISTDataset.py
class _PandasDataset(Dataset):
    def __init__(self, dataPath):
        self.data = pd.read_csv(dataPath)


class MNISTDatasetReader:
    def __init__(self, path, division=0.7) -> None:
        self.path = path
        self.division = division
        self.data = _PandasDataset(self.path)

    def getDatasets(self):
        dt = self.data.data
        length = len(dt)
        cutSize = length * self.division
        if self.division == 1:
            return dt
        return dt.loc[:cutSize], dt.loc[cutSize:].reset_index(drop=True)


class MNISTDataset(Dataset):
    def __init__(self, pandas, train=True):
        self.data = pandas
        self.train = train

    def __getitem__(self, idx):
        line = self.data.iloc[idx]
        if self.train:
            return line.iloc[0], tensor(line.iloc[1:].to_list())  # root-cause
        else:
            return tensor(line.iloc[0:].to_list())

    def __len__(self):
        return self.data.shape[0]


# ---- synthetic stand-in for Kaggle's data/train.csv (label, pixel0..pixel783 as 0..255 integers)
def write_train_csv(path, n=160, seed=0):
    rng = np.random.RandomState(seed)
    frame = pd.DataFrame(rng.randint(0, 256, size=(n, 784)), columns=[f"pixel{i}" for i in range(784)])
    frame.insert(0, "label", rng.randint(0, 10, size=n))
    frame.to_csv(path, index=False)


# ---- main.py
device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")


class MNISTClassifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.IN_SIZE = 784
        self.h1 = torch.nn.Linear(self.IN_SIZE, self.IN_SIZE * 2)
        self.a1 = torch.nn.ReLU()
        self.h2 = torch.nn.Linear(self.IN_SIZE * 2, 512)
        self.a2 = torch.nn.ReLU()
        self.out = torch.nn.Linear(512, 10)
        self.a3 = torch.nn.Softmax(dim=0)

    def forward(self, x):
        x = torch.nn.Flatten()(x)
        x = self.h1(x)  # fails-here
        x = self.a1(x)
        x = self.h2(x)
        x = self.a2(x)
        x = self.out(x)
        return self.a3(x)


data_dir = tempfile.mkdtemp()
write_train_csv(os.path.join(data_dir, "train.csv"))
train, test = MNISTDatasetReader(os.path.join(data_dir, "train.csv")).getDatasets()
train, test = MNISTDataset(train, True), MNISTDataset(test, True)

BATCH_SIZE = 32
train_loader = DataLoader(train, BATCH_SIZE, True)
test_loader = DataLoader(test, BATCH_SIZE, True)

model = MNISTClassifier().to(device)
print(model)


def decodeLabel(num: torch.Tensor):
    size = num.size(0)
    labels = torch.zeros((size, 10), dtype=torch.float32)
    for i in range(size):
        n = num[i]
        labels[i][n] = 1
    return labels


loss_fn = torch.nn.CrossEntropyLoss()
optim = torch.optim.SGD(model.parameters(), lr=1e-5, momentum=0.9)
TRAIN_SIZE = len(train_loader.dataset)
TEST_SIZE = len(test_loader.dataset)
EPOCHS = 2

for currentEpoch in range(EPOCHS):
    print(f"EPOCH: {currentEpoch+1}|{EPOCHS}\n", "-" * 10)
    model.train()
    for batch, (label, img) in enumerate(train_loader):
        label, img = label.to(device), img.to(device)
        pred = model(img)
        expected = decodeLabel(label).to(device)
        loss: torch.Tensor = loss_fn(pred, expected)
        loss.backward()
        optim.step()
        optim.zero_grad()
        if batch % 100 == 0:
            current = (batch + 1) * BATCH_SIZE
            print(f"Loss: {loss.item():>4f} | Current: [{current}/{TRAIN_SIZE}]")

    model.eval()
    test_loss, correct = 0, 0
    NUM_BATCHES = len(test_loader)
    with torch.no_grad():
        for label, image in test_loader:
            label, image = label.to(device), image.to(device)
            pred = model(image)
            expected = decodeLabel(label).to(device)
            test_loss += loss_fn(pred, expected).item()
            correct += (pred.argmax(1) == expected.argmax(1)).type(torch.float).sum().item()
    test_loss /= NUM_BATCHES
    correct /= TEST_SIZE
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")

torch.save(model.state_dict(), os.path.join(data_dir, "mnist.pth"))
