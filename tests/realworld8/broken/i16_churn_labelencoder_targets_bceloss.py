"""Customer-churn classifier: the yes/no column is encoded with sklearn's LabelEncoder (int64), stored in a TensorDataset next to float32 features, and the batches go to nn.BCELoss after a sigmoid
source: https://www.codegenes.net/blog/pytorch-bceloss-got-torchfloattensor-but-expected-torchlongtensor-other
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float (BCELoss with a LongTensor target)
outcome: RuntimeError: Found dtype Long but expected Float at line 50
root-cause: line 41
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import LabelEncoder, StandardScaler
from torch.utils.data import DataLoader, TensorDataset


def load_churn(n=200, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "tenure": rng.integers(1, 72, n),
        "monthly_charges": rng.normal(70, 20, n).round(2),
        "support_calls": rng.poisson(2, n),
    })
    churn_prob = 1 / (1 + np.exp(0.05 * df["tenure"] - 0.5 * df["support_calls"]))
    df["Churn"] = np.where(rng.random(n) < churn_prob, "Yes", "No")
    return df


class ChurnNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_features, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, x):
        return self.layers(x).squeeze(1)


df = load_churn()
features = StandardScaler().fit_transform(df[["tenure", "monthly_charges", "support_calls"]]).astype(np.float32)
encoder = LabelEncoder()
targets = encoder.fit_transform(df["Churn"])
dataset = TensorDataset(torch.from_numpy(features), torch.from_numpy(targets))  # root-cause
loader = DataLoader(dataset, batch_size=32, shuffle=True)

model = ChurnNet(features.shape[1])
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    for xb, yb in loader:
        predictions = model(xb)
        loss = criterion(predictions, yb)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
