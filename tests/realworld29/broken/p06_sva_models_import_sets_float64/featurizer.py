import torch.nn as nn


class Featurizer(nn.Module):
    """Maps experimental conditions to features for the surrogate model."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 16), nn.Tanh(), nn.Linear(16, d_out))

    def forward(self, x):
        return self.net(x)  # fails-here
