"""Steps once, then loops forever without a DataLoader (run-through cannot shorten it)."""
import time

import torch
from torch import nn

model = nn.Linear(2, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(1, 2)).sum().backward()
opt.step()
with torch.no_grad():
    model(torch.ones(1, 2))
while True:
    time.sleep(0.05)  # LOOP-LINE
