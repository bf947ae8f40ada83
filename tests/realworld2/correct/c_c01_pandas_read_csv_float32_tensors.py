"""Regression on a county education CSV, fixed: the pandas integer columns become float32 tensors (dtype=torch.float32)
source: https://openillumi.com/fix-mat1-mat2-dtype-error-pytorch
reported-error: RuntimeError: mat1 and mat2 must have the same dtype
outcome: ok
root-cause: none
expect: none
"""
# notebook cells exported to a script ("US counties - education vs per capita personal income")
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

# --- cell 1: write a small stand-in for the BigQuery export ---------------------------------
data_dir = tempfile.mkdtemp()
csv_path = os.path.join(data_dir, "US counties - education vs per capita personal income - results-20221227-213216.csv")
rng = np.random.default_rng(0)
n_counties = 64
pd.DataFrame({
    "geo_id": np.arange(1000, 1000 + n_counties),
    "bachelor_degree_numbers_2016_2020": rng.integers(100, 50000, n_counties),
    "associate_degree_numbers_2016_2020": rng.integers(50, 20000, n_counties),
    "per_capita_personal_income_2020": rng.integers(30000, 90000, n_counties),
}).to_csv(csv_path, index=False)

# --- cell 2: load --------------------------------------------------------------------------
df = pd.read_csv(csv_path)
df.head()

X = torch.tensor(df[["bachelor_degree_numbers_2016_2020", "associate_degree_numbers_2016_2020"]].values, dtype=torch.float32)
y = torch.tensor(df["per_capita_personal_income_2020"].values, dtype=torch.float32)
print(X.dtype, y.dtype)

# --- cell 3: model -------------------------------------------------------------------------
class LinearRegressionModel(nn.Module):
    def __init__(self, in_features):
        super().__init__()
        self.linear = nn.Linear(in_features, 1)

    def forward(self, x):
        return self.linear(x)


model = LinearRegressionModel(X.shape[1])
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-9)

# --- cell 4: train -------------------------------------------------------------------------
epochs = 20
for epoch in range(epochs):
    model.train()
    y_pred = model(X)
    loss = loss_fn(y_pred.squeeze(), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(f"Epoch: {epoch} | Loss: {loss.item():.2f}")
