"""The default device is switched after the model exists: the model stays on the CPU while
the data follows the new default (fine on a CPU-only machine, a device mismatch on a GPU)."""
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"

model = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 2))  # expect: DG009
torch.set_default_device(device)  # expect: DG001

x = torch.randn(64, 10)
y = torch.randint(0, 2, (64,))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
