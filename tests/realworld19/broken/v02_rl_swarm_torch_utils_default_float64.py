"""Policy-gradient agent for a swarm task: the Runner builds the policy first and only then imports its torch_utils.configure(), which sets torch.set_default_dtype(torch.float64) globally; observations later built with torch.tensor(list_of_floats) become float64 and hit the float32 policy
source: https://github.com/gensyn-ai/rl-swarm/issues/188
reported-error: Potential issue with global torch.set_default_dtype(torch.float64) in swarm_rl/utils/torch_utils.py (other code assuming float32 gets runtime dtype errors)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 49
root-cause: line 17
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical


# ---- swarm_rl/utils/torch_utils.py
def configure(seed=0):
    torch.manual_seed(seed)
    torch.set_default_dtype(torch.float64)  # root-cause


# ---- swarm_rl/env.py
class GridSwarmEnv:
    def __init__(self, n_agents=4, size=8, seed=0):
        self.rng = np.random.default_rng(seed)
        self.n, self.size = n_agents, size

    def reset(self):
        self.pos = self.rng.integers(0, self.size, (self.n, 2))
        return self._obs()

    def _obs(self):
        centre = self.pos.mean(0)
        return [[float(x) / self.size, float(y) / self.size, float(centre[0]) / self.size, float(centre[1]) / self.size]
                for x, y in self.pos]

    def step(self, actions):
        moves = np.array([[0, 1], [1, 0], [0, -1], [-1, 0]])
        self.pos = np.clip(self.pos + moves[actions], 0, self.size - 1)
        spread = np.linalg.norm(self.pos - self.pos.mean(0), axis=1).mean()
        return self._obs(), -float(spread)


# ---- swarm_rl/policy.py
class Policy(nn.Module):
    def __init__(self, obs_dim=4, n_actions=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return Categorical(logits=self.body(obs))  # fails-here


class Runner:
    def __init__(self):
        self.env = GridSwarmEnv()
        self.policy = Policy()
        self.opt = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
        configure(seed=0)

    def episode(self, horizon=16):
        obs = self.env.reset()
        logps, rewards = [], []
        for _ in range(horizon):
            dist = self.policy(torch.tensor(obs))
            a = dist.sample()
            logps.append(dist.log_prob(a).sum())
            obs, r = self.env.step(a.numpy())
            rewards.append(r)
        ret = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
        loss = -(torch.stack(logps) * (ret - ret.mean())).mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return sum(rewards)


if __name__ == "__main__":
    runner = Runner()
    for ep in range(3):
        print("episode", ep, "return", round(runner.episode(), 3))
