"""An accelerate training loop (Accelerator.prepare / accelerator.backward) on synthetic data."""
import torch
from accelerate import Accelerator
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

accelerator = Accelerator()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
X = torch.randn(64, 8)
y = torch.randint(0, 3, (64,))
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
for x, target in loader:
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), target)
    accelerator.backward(loss)
    optimizer.step()
