"""Trains fine; the validation helper after the first epoch feeds one-hot targets to
CrossEntropyLoss, which fails only there."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
train = DataLoader(TensorDataset(torch.randn(4000, 4), torch.randint(0, 3, (4000,))), batch_size=4, shuffle=True)
val = DataLoader(TensorDataset(torch.randn(400, 4), torch.randint(0, 3, (400,))), batch_size=4)
model = nn.Linear(4, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()


def validate():
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in val:
            total += criterion(model(x), F.one_hot(y, 3)).item()  # EVAL-LINE
    return total


for epoch in range(50):
    model.train()
    seen = 0
    for x, y in train:
        opt.zero_grad()
        criterion(model(x), y).backward()
        opt.step()
        seen += 1
    print(f"epoch {epoch} batches {seen} len {len(train)} shape {tuple(x.shape)}")
    validate()
