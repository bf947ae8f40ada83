"""Regression on a DataFrame: train_X cast to float32 but train_y left as pandas float64, MSE silently promoted
source: https://github.com/cornellius-gp/gpytorch/issues/2003
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: ok (silent: train_y is float64, MSELoss output and loss are float64 instead of float32)
root-cause: line 32
expect: DG008
"""
import numpy as np
import pandas as pd
import torch


class FeatureRegressor(torch.nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.mean_module = torch.nn.Linear(n_features, 16)
        self.covar_module = torch.nn.Sequential(torch.nn.Tanh(), torch.nn.Linear(16, 1))

    def forward(self, x):
        return self.covar_module(self.mean_module(x)).squeeze(-1)


def load_frame(n=256, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(rng.normal(size=(n, 3)), columns=["x1", "x2", "x3"])
    df["y"] = np.sin(df["x1"]) + 0.5 * df["x2"] - 0.1 * df["x3"] + rng.normal(0, 0.05, n)
    return df


df = load_frame()
train_X = torch.tensor(df[["x1", "x2", "x3"]].values, dtype=torch.float32)
train_y = torch.tensor(df["y"].values)  # root-cause
test_X = torch.tensor(load_frame(64, 1)[["x1", "x2", "x3"]].values, dtype=torch.float32)
print(train_X.dtype, train_y.dtype, test_X.dtype)

model = FeatureRegressor(train_X.shape[1])
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
mll = torch.nn.MSELoss()

training_iter = 50
for i in range(training_iter):
    optimizer.zero_grad()
    output = model(train_X)
    loss = mll(output, train_y)
    loss.backward()
    optimizer.step()
    if i % 10 == 0:
        print('Iter %d/%d - Loss: %.3f (%s)' % (i + 1, training_iter, loss.item(), loss.dtype))

model.eval()
with torch.no_grad():
    observed_pred = model(test_X)
print(observed_pred.shape)
