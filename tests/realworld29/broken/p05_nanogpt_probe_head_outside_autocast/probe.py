import torch.nn as nn


class LinearProbe(nn.Module):
    def __init__(self, n_in, n_classes):
        super().__init__()
        self.head = nn.Linear(n_in, n_classes)

    def forward(self, h):
        return self.head(h)  # fails-here
