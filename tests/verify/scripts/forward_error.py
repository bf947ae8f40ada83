"""H06: NumPy float64 data into a float32 Linear fails in the forward pass (DG004)."""
import numpy as np
import torch
from torch import nn

model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters())
x = torch.from_numpy(np.random.rand(8, 3))  # float64


def forward(batch):
    return model(batch)  # ERROR-LINE


loss = forward(x).sum()
loss.backward()
opt.step()
