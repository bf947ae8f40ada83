"""Building-energy regressor: the features are scaled and cast to float32, but the target is standardised in a separate StandardScaler (float64 output) inside prepare_targets(); the training loop's MSE is then computed in float64 silently
source: https://github.com/skorch-dev/skorch/issues/824
reported-error: Scalar type error, how to set dtype of loss function? (regression target normalised with a scaler)
outcome: ok (silent: loss_fn(out, yb) at line 39 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 22
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(11)
X = np.column_stack([rng.uniform(50, 400, 500), rng.integers(1, 6, 500), rng.uniform(-5, 35, 500)])
y = 0.8 * X[:, 0] + 12 * X[:, 1] - 1.5 * X[:, 2] + rng.normal(0, 10, 500)


def prepare_targets(y_train, y_test):
    y_scaler = StandardScaler()
    y_tr = y_scaler.fit_transform(y_train.reshape(-1, 1))  # root-cause
    y_te = y_scaler.transform(y_test.reshape(-1, 1))
    return torch.as_tensor(y_tr), torch.as_tensor(y_te), y_scaler


X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
x_scaler = StandardScaler().fit(X_train)
X_tr = torch.as_tensor(x_scaler.transform(X_train), dtype=torch.float32)
X_te = torch.as_tensor(x_scaler.transform(X_test), dtype=torch.float32)
y_tr, y_te, y_scaler = prepare_targets(y_train, y_test)

model = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1))
loss_fn = nn.MSELoss()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(20):
    for xb, yb in DataLoader(TensorDataset(X_tr, y_tr), batch_size=64, shuffle=True):
        out = model(xb)
        loss = loss_fn(out, yb)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
with torch.no_grad():
    test_mse = loss_fn(model(X_te), y_te).item()
print(f"test mse (scaled) {test_mse:.4f}")
print("loss dtype", loss.dtype)
