"""Species classifier with gradient accumulation: labels come from sklearn LabelEncoder and are stored .astype("int32") in prepare_data() (the reporter's Windows default int); the int32 targets reach F.nll_loss in train_one_epoch
source: https://github.com/ansh941/MnistSimpleCNN/pull/1
reported-error: On windows the default dtype is int32 which is not accepted by F.nll_loss (explicit dtype fixes it)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 48
root-cause: line 29
expect: DG006
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from sklearn.preprocessing import LabelEncoder
from torch.utils.data import DataLoader, TensorDataset


def make_frame(n=150, seed=0):
    rng = np.random.default_rng(seed)
    species = rng.choice(["setosa", "versicolor", "virginica"], n)
    base = {"setosa": 1.0, "versicolor": 2.0, "virginica": 3.0}
    df = pd.DataFrame({"species": species})
    for col in ["sepal_l", "sepal_w", "petal_l", "petal_w"]:
        df[col] = [base[s] + rng.normal(0, 0.3) for s in species]
    return df


def prepare_data(df):
    encoder = LabelEncoder()
    y = encoder.fit_transform(df["species"]).astype("int32")  # root-cause
    X = df[["sepal_l", "sepal_w", "petal_l", "petal_w"]].to_numpy(np.float32)
    return TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), list(encoder.classes_)


class Net(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(4, 16), nn.Linear(16, n_classes)

    def forward(self, x):
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


def train_one_epoch(model, loader, optimizer, accum_steps=4):
    model.train()
    optimizer.zero_grad()
    for i, (data, target) in enumerate(loader):
        output = model(data)
        loss = F.nll_loss(output, target) / accum_steps  # fails-here
        loss.backward()
        if (i + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad()
    return loss.item() * accum_steps


dataset, classes = prepare_data(make_frame())
model = Net(len(classes))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
print("loss", train_one_epoch(model, DataLoader(dataset, batch_size=8, shuffle=True), optimizer))
