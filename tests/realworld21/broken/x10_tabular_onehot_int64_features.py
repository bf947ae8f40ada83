"""Binary tabular classifier for a small survey table: categorical answers are one-hot encoded with pd.get_dummies(dtype=int) and the whole feature frame is turned into a tensor with torch.tensor(df.values), which infers int64; the float32 MLP then multiplies a Long input
source: https://learn.biosrag.com/ai/experiences/mismatch-long-and-float.html
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float (input built from integer literals, torch.tensor([[1, 0], [0, 1], [1, 1]]))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 40
root-cause: line 27
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- data.py
def load_survey(n=64, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({
        "region": rng.choice(["north", "south", "east"], n),
        "owns_car": rng.integers(0, 2, n),
        "channel": rng.choice(["web", "phone"], n),
        "converted": rng.integers(0, 2, n),
    })


def to_tensors(df, target="converted"):
    X = pd.get_dummies(df.drop(columns=[target]), columns=["region", "channel"], dtype=int)
    features = torch.tensor(X.values)  # root-cause
    labels = torch.tensor(df[target].values, dtype=torch.float32).unsqueeze(1)
    return features, labels, list(X.columns)


# ---- model.py
class SurveyNet(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.hidden = nn.Linear(n_in, 8)
        self.out = nn.Linear(8, 1)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))  # fails-here


if __name__ == "__main__":
    torch.manual_seed(0)
    X, y, cols = to_tensors(load_survey())
    model = SurveyNet(len(cols))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.BCEWithLogitsLoss()
    for epoch in range(20):
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"final loss {loss.item():.4f}")
