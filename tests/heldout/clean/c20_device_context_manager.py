"""Model parameters are created directly on the target device with the
`with torch.device(...)` context manager; batches are moved explicitly."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def target_device():
    return torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")


device = target_device()
with device:
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))

loader = DataLoader(TensorDataset(torch.randn(128, 16), torch.randint(0, 4, (128,))), batch_size=32, shuffle=True)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(2):
    for step, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device), yb.to(device)
        loss = nn.functional.cross_entropy(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} step {step} loss {loss.item():.3f}")
