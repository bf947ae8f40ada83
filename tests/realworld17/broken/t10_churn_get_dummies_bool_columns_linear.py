"""Customer-churn MLP on a pandas frame: pd.get_dummies (pandas >= 2) returns bool indicator columns, prepare_features() wraps dummies.to_numpy() with torch.tensor, and the Bool feature matrix reaches the float32 nn.Linear
source: https://cloud.baidu.com/article/2793841
reported-error: pandas get_dummies returns Boolean output instead of 0/1 values (then RuntimeError: mat1 and mat2 must have the same dtype, but got Bool and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Bool and Float at line 39
root-cause: line 27
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split


def load_frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "contract": rng.choice(["monthly", "one_year", "two_year"], n),
        "payment": rng.choice(["card", "bank", "check"], n),
        "internet": rng.choice(["dsl", "fiber", "none"], n),
        "churn": rng.integers(0, 2, n),
    })


def prepare_features(df):
    dummies = pd.get_dummies(df.drop(columns="churn"))
    X = torch.tensor(dummies.to_numpy())  # root-cause
    y = torch.tensor(df["churn"].to_numpy(), dtype=torch.float32)
    return X, y


df = load_frame()
train_df, test_df = train_test_split(df, test_size=0.25, random_state=0)
X_train, y_train = prepare_features(train_df)
model = nn.Sequential(nn.Linear(X_train.shape[1], 16), nn.ReLU(), nn.Linear(16, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(5):
    logits = model(X_train).squeeze(1)  # fails-here
    loss = loss_fn(logits, y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
