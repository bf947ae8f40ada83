"""Fixed character-based-cnn#5: after dropna the float64 rating column is cast with .astype(np.int64) for CrossEntropyLoss
source: https://github.com/ahmedbesbes/character-based-cnn/issues/5
reported-error: RuntimeError: expected scalar type Long but found Double
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

ALPHABET = "abcdefghijklmnopqrstuvwxyz "
MAX_LEN = 20


class MyDataset(Dataset):
    def __init__(self, texts, labels):
        self.texts, self.labels = texts, labels
        self.identity_mat = np.identity(len(ALPHABET), dtype=np.float32)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        rows = [self.identity_mat[ALPHABET.index(c)] for c in self.texts[index][:MAX_LEN] if c in ALPHABET]
        data = np.zeros((MAX_LEN, len(ALPHABET)), dtype=np.float32)
        data[:len(rows)] = rows
        return data, self.labels[index]


df = pd.DataFrame({"comment": ["great product", "awful", "ok i guess", "love it", "meh", "not bad"] * 4,
                   "rating": np.array([9, 1, 5, 10, np.nan, 6] * 4)})
df = df.dropna()
labels = df["rating"].values.astype(np.int64)
model = nn.Sequential(nn.Flatten(), nn.Linear(MAX_LEN * len(ALPHABET), 11))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for features, target in DataLoader(MyDataset(df["comment"].tolist(), labels), batch_size=8, shuffle=True):
    optimizer.zero_grad()
    loss = criterion(model(features), target)
    loss.backward()
    optimizer.step()
