"""Driving-simulator rollout: the float32 Gaussian policy is created first, then the simulator subclass's constructor calls torch.set_default_dtype(torch.float64) for its power-series integrator, so every observation it builds from Python lists is float64 and the policy's first Linear fails
source: https://github.com/sisl/InteractionSimulator/pull/2
reported-error: the simulator switched the global default dtype to double although only the power series needed it; the fix leaves the default at torch.float32 and uses double only for the power series
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 21
root-cause: line 34
expect: DG001
"""
import math

import torch
import torch.nn as nn


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def act(self, obs):
        mean = self.mu(obs)  # fails-here
        return mean + self.log_std.exp() * torch.randn_like(mean)


class BaseSimulator:
    def __init__(self, n_agents):
        self.n_agents = n_agents
        self.t = 0.0


class InteractionSimulator(BaseSimulator):
    def __init__(self, n_agents=4, order=6):
        super().__init__(n_agents)
        torch.set_default_dtype(torch.float64)  # root-cause
        self.coeffs = torch.tensor([1.0 / math.factorial(k) for k in range(order)])
        self.state = [[0.1 * i, 0.0, 1.0, 0.0, 0.5, 0.0] for i in range(n_agents)]

    def observe(self):
        return torch.tensor(self.state)

    def step(self, actions, dt=0.1):
        powers = torch.stack([torch.full((self.n_agents,), dt) ** k for k in range(len(self.coeffs))], 1)
        growth = (powers * self.coeffs).sum(1)
        for i, (acc, steer) in enumerate(actions.tolist()):
            self.state[i][0] += self.state[i][2] * dt * float(growth[i])
            self.state[i][2] += acc * dt
            self.state[i][3] = steer
        self.t += dt
        return self.observe()


policy = GaussianPolicy()
sim = InteractionSimulator()
obs = sim.observe()
for step in range(5):
    with torch.no_grad():
        actions = policy.act(obs)
    obs = sim.step(actions)
print("t =", round(sim.t, 2))
