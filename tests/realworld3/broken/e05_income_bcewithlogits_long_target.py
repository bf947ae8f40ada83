"""Binary classifier: y loaded from the DataFrame as int64 and passed straight to BCEWithLogitsLoss
source: https://openillumi.com/en/en-pytorch-float-long-cast-error-fix
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 42
root-cause: line 22
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(7)
df = pd.DataFrame({
    "age": rng.integers(18, 80, 200),
    "hours_per_week": rng.integers(10, 60, 200),
})
df["high_income"] = ((df["age"] + df["hours_per_week"]) > 90).astype(int)

X = torch.tensor(df[["age", "hours_per_week"]].values, dtype=torch.float32)
X = (X - X.mean(0)) / X.std(0)
y = torch.tensor(df["high_income"].values)  # root-cause


class BinaryClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer_1 = nn.Linear(2, 8)
        self.layer_2 = nn.Linear(8, 1)

    def forward(self, x):
        return self.layer_2(torch.relu(self.layer_1(x)))


model = BinaryClassifier()
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(20):
    model.train()
    y_pred = model(X)
    loss = criterion(y_pred.squeeze(), y)  # fails-here
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 5 == 0:
        print(f"Epoch {epoch} | Loss {loss.item():.4f}")
