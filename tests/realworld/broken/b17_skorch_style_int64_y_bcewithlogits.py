"""Binary classifier on a pandas feature frame: y_train cast to np.int64 as for a classifier, but the loss is BCEWithLogitsLoss
source: https://github.com/skorch-dev/skorch/issues/813
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 57
root-cause: line 45
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(42)
X = pd.DataFrame(rng.normal(size=(128, 12)), columns=["f%d" % i for i in range(12)])
y = pd.Series((X["f0"] + X["f1"] > 0).astype(int))
X_train, y_train = X.values, y.values


class MyModule(nn.Module):
    def __init__(self, input=12, l1=60, l2=60, dropout=0.1):
        super(MyModule, self).__init__()

        self.layer_1 = nn.Linear(input, l1)
        self.layer_2 = nn.Linear(l1, l2)
        self.layer_out = nn.Linear(l2, 1)

        self.relu = nn.ReLU()
        self.dropout = nn.Dropout(dropout)
        self.batchnorm1 = nn.BatchNorm1d(l1, momentum=0.2)
        self.batchnorm2 = nn.BatchNorm1d(l2, momentum=0.2)

    def forward(self, inputs):
        x = self.relu(self.layer_1(inputs))
        x = self.batchnorm1(x)
        x = self.dropout(x)
        x = self.relu(self.layer_2(x))
        x = self.batchnorm2(x)
        x = self.dropout(x)
        x = self.layer_out(x)
        return x.squeeze(-1)


def get_classifier():
    X_train_m = X_train.astype(np.float32)
    y_train_m = y_train.astype(np.int64)  # root-cause

    X_train_df = pd.DataFrame(X_train_m, columns=X.columns)
    module = MyModule()
    criterion = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(module.parameters(), lr=0.01)
    Xt = torch.as_tensor(X_train_df.values)
    yt = torch.as_tensor(y_train_m)
    for epoch in range(3):
        for i in range(0, len(Xt), 32):
            optimizer.zero_grad()
            y_pred = module(Xt[i:i + 32])
            loss = criterion(y_pred, yt[i:i + 32])  # fails-here
            loss.backward()
            optimizer.step()
    return module


if __name__ == "__main__":
    get_classifier()
