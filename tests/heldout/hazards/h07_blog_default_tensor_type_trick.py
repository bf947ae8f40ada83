"""Follows a blog post: 'set the default tensor type first and Adam stops complaining'."""
import numpy as onp
import torch
import torch.nn as nn

torch.set_default_tensor_type("torch.FloatTensor")  # expect: DG002


def load_features(n=200, d=5):
    data = onp.loadtxt(_fake_csv(n, d), delimiter=",")
    return data[:, :-1], data[:, -1:]


def _fake_csv(n, d):
    import io
    rows = onp.random.rand(n, d + 1)
    buf = io.StringIO()
    onp.savetxt(buf, rows, delimiter=",")
    buf.seek(0)
    return buf


X_np, y_np = load_features()
X = torch.from_numpy(X_np)  # expect: DG004
y = torch.from_numpy(y_np).float()

model = nn.Linear(X.shape[1], 1)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(5):
    optimizer.zero_grad()
    out = model(X)
    loss = nn.functional.mse_loss(out, y)
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())
