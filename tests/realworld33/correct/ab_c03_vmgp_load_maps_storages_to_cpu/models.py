import torch
import torch.nn as nn

from device import device


class FeatureNet(nn.Module):
    def __init__(self, dim_in=1, hidden=40, dim_out=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim_in, hidden), nn.ReLU(), nn.Linear(hidden, dim_out))

    def forward(self, x):
        return self.net(x)


class VMGP(nn.Module):
    """Meta-learned deep-kernel GP: a shared feature net and an RBF kernel in feature space."""

    def __init__(self, dim_in=1, noise=0.05):
        super().__init__()
        self.features = FeatureNet(dim_in)
        self.log_ls = nn.Parameter(torch.zeros(()))
        self.noise = noise

    def kernel(self, a, b):
        return torch.exp(-0.5 * torch.cdist(a, b).pow(2) / self.log_ls.exp().pow(2))

    def predict(self, x_ctx, y_ctx, x_tgt):
        f_ctx, f_tgt = self.features(x_ctx), self.features(x_tgt)
        K = self.kernel(f_ctx, f_ctx) + self.noise * torch.eye(len(x_ctx), device=x_ctx.device)
        return self.kernel(f_tgt, f_ctx) @ torch.linalg.solve(K, y_ctx)

    def save(self, path):
        torch.save({'state_dict': self.state_dict(), 'noise': self.noise}, path)

    def load(self, path, map_location=None):
        state = torch.load(path, map_location=map_location)
        self.load_state_dict(state['state_dict'])
        self.noise = state['noise']
        return self.to(device)
