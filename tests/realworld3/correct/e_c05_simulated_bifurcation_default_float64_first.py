"""torch.set_default_dtype(torch.float64) called before any matrix or model is created (the fix from the thread)
source: https://github.com/bqth29/simulated-bifurcation-algorithm/issues/36
reported-error: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float
outcome: ok
root-cause: none
expect: none
"""
import torch

torch.set_default_dtype(torch.float64)


class SimulatedBifurcationOptimizer(torch.nn.Module):
    def __init__(self, J, h, agents=8):
        super().__init__()
        self.J, self.h = J, h
        self.position = torch.nn.Parameter(torch.rand(J.shape[0], agents) * 2 - 1)

    def forward(self):
        spins = torch.tanh(self.position)
        return -0.5 * (spins * (self.J @ spins)).sum(0) + self.h @ spins


def minimize(J, h, steps=50):
    model = SimulatedBifurcationOptimizer(J, h)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(steps):
        energy = model().sum()
        opt.zero_grad()
        energy.backward()
        opt.step()
    return torch.sign(model.position.detach()), model().min().item()


J = torch.randn(6, 6)
J = (J + J.T) / 2
h = torch.randn(6)
spins, best = minimize(J, h)
print(spins.dtype, best)
