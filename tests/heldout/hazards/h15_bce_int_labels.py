"""Binary churn classifier with a Sigmoid head and nn.BCELoss."""
import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset


def make_loader(n=200, d=10, bs=25):
    X = torch.randn(n, d)
    y = (X[:, 0] + 0.3 * torch.randn(n) > 0).long().unsqueeze(1)  # expect: DG007
    return DataLoader(TensorDataset(X, y), batch_size=bs, shuffle=True)


model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1), nn.Sigmoid())
criterion = nn.BCELoss()
optimizer = optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    epoch_loss, n_batches = 0.0, 0
    for X_batch, y_batch in make_loader():
        probs = model(X_batch)
        loss = criterion(probs, y_batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
        n_batches += 1
    print("epoch %d  bce %.4f" % (epoch, epoch_loss / n_batches))
