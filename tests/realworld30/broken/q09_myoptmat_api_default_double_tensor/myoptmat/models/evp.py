import torch
import torch.nn as nn


class EVPSurrogate(nn.Module):
    """Elasto-viscoplastic response surrogate: (time, temperature, strain) -> stress."""

    def __init__(self, n_hidden=16):
        super().__init__()
        self.scale = nn.Parameter(torch.tensor([0.01, 0.001, 5.0]))
        self.hidden = nn.Linear(3, n_hidden)
        self.out = nn.Linear(n_hidden, 1)

    def forward(self, x):
        h = torch.tanh(self.hidden(x * self.scale.to(x.dtype)))  # fails-here
        return self.out(h)
