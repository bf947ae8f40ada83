"""DQN agent whose CircularReplayBuffer stores rewards in an np.zeros(capacity) array (float64); the TD target r + gamma * max Q' becomes float64 and smooth_l1_loss silently computes the loss in double precision
source: https://github.com/chandar-lab/RLHive/pull/86
reported-error: reward dtype bug (rewards stored with the wrong dtype in the replay buffer)
outcome: ok (silent: smooth_l1_loss(q, td_target) at line 46 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 20
expect: DG008
"""
import copy

import numpy as np
import torch
import torch.nn as nn


class CircularReplayBuffer:
    def __init__(self, capacity, obs_dim, rng):
        self.obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.next_obs = np.zeros((capacity, obs_dim), dtype=np.float32)
        self.actions = np.zeros(capacity, dtype=np.int64)
        self.rewards = np.zeros(capacity)  # root-cause
        self.dones = np.zeros(capacity, dtype=np.float32)
        self.size, self.capacity, self.rng = 0, capacity, rng

    def add(self, o, a, r, o2, d):
        k = self.size % self.capacity
        self.obs[k], self.actions[k], self.rewards[k], self.next_obs[k], self.dones[k] = o, a, r, o2, d
        self.size += 1

    def sample(self, n):
        idx = self.rng.integers(0, min(self.size, self.capacity), n)
        return {k: torch.from_numpy(getattr(self, k)[idx]) for k in ("obs", "actions", "rewards", "next_obs", "dones")}


class DQNAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.99):
        self.q = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.target_q = copy.deepcopy(self.q)
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.gamma = gamma

    def update(self, batch):
        q = self.q(batch["obs"]).gather(1, batch["actions"].unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            next_q = self.target_q(batch["next_obs"]).max(1).values
            td_target = batch["rewards"] + self.gamma * (1 - batch["dones"]) * next_q
        loss = nn.functional.smooth_l1_loss(q, td_target)  # fails-here
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss


rng = np.random.default_rng(0)
buf = CircularReplayBuffer(256, 4, rng)
for _ in range(200):
    o = rng.normal(size=4).astype(np.float32)
    buf.add(o, rng.integers(0, 2), float(rng.random() > 0.5), o + 0.1, float(rng.random() < 0.05))
agent = DQNAgent(4, 2)
for step in range(5):
    loss = agent.update(buf.sample(32))
print(f"loss dtype {loss.dtype}, loss {loss.item():.4f}")
