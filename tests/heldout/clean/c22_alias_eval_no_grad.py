"""Aliased imports; training then an evaluation pass under torch.no_grad()."""
import torch as T
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

T.manual_seed(0)
X = T.randn(400, 6)
y = (X[:, :3].sum(1) > 0).long()
train_dl = DataLoader(TensorDataset(X[:320], y[:320]), batch_size=64, shuffle=True)
test_dl = DataLoader(TensorDataset(X[320:], y[320:]), batch_size=80)

model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
opt = optim.SGD(model.parameters(), lr=0.2)
loss_fn = nn.CrossEntropyLoss()

for epoch in range(3):
    model.train()
    for xb, yb in train_dl:
        opt.zero_grad()
        loss_fn(model(xb), yb).backward()
        opt.step()

    model.eval()
    hits = 0
    with T.no_grad():
        for xb, yb in test_dl:
            hits += (model(xb).argmax(1) == yb).sum().item()
    print(f"epoch {epoch}: test acc {hits / 80:.3f}")
