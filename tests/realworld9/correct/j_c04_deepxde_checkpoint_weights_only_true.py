"""DeepXDE-style save/restore with torch.load(..., weights_only=True) given explicitly: the checkpoint holds only the model and optimizer state_dicts (tensors, ints, floats, lists), so the optimizer state restores unchanged
source: https://github.com/lululxvi/deepxde/pull/1975
reported-error: none (weights_only=True still loads the optimizer state)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 20), nn.Tanh(), nn.Linear(20, 1))

    def forward(self, x):
        return self.net(x)


class Model:
    def __init__(self):
        self.net = PINN()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)

    def train(self, steps=10):
        x = torch.rand(64, 2)
        for _ in range(steps):
            loss = (self.net(x) - torch.sin(x.sum(1, keepdim=True))).pow(2).mean()
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()

    def save(self, path):
        torch.save({"model_state_dict": self.net.state_dict(), "optimizer_state_dict": self.opt.state_dict()}, path)

    def restore(self, path):
        checkpoint = torch.load(path, weights_only=True)
        self.net.load_state_dict(checkpoint["model_state_dict"])
        self.opt.load_state_dict(checkpoint["optimizer_state_dict"])


path = os.path.join(tempfile.mkdtemp(), "model-10.pt")
m = Model()
m.train()
m.save(path)
m2 = Model()
m2.restore(path)
same = all(torch.equal(a, b) for a, b in zip(m.opt.state_dict()["state"][0].values(), m2.opt.state_dict()["state"][0].values()))
print("optimizer state restored:", same, "loss", m2.train(5))
