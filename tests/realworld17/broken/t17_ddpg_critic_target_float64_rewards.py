"""DDPG on a NumPy replay buffer: sample() returns rewards as a float64 column (np.array of Python floats) and dones as bool; compute_loss() builds the critic target from torch.from_numpy(rewards) so F.mse_loss(curr_Q, expected_Q) silently runs in float64
source: https://github.com/cyoon1729/deep-Q-networks/pull/4
reported-error: none raised (DDPG compute_loss target built from the sampled batch)
outcome: ok (silent: F.mse_loss(curr_Q, expected_Q) at line 57 returns a float64 critic loss, printed as "loss dtype torch.float64")
root-cause: line 22
expect: DG008
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBuffer:
    def __init__(self, max_size):
        self.buffer = []
        self.max_size = max_size

    def push(self, state, action, reward, next_state, done):
        self.buffer.append((state, action, np.array([reward]), next_state, done))  # root-cause
        self.buffer = self.buffer[-self.max_size:]

    def sample(self, batch_size):
        batch = random.sample(self.buffer, batch_size)
        s, a, r, s2, d = zip(*batch)
        return np.stack(s), np.stack(a), np.stack(r), np.stack(s2), np.array(d)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], 1))


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, act_dim), nn.Tanh())

    def forward(self, s):
        return self.net(s)


def compute_loss(critic, target_critic, target_actor, batch, gamma=0.99):
    s, a, r, s2, d = batch
    s, a, s2 = torch.from_numpy(s), torch.from_numpy(a), torch.from_numpy(s2)
    r = torch.from_numpy(r)
    mask = torch.from_numpy(~d).float().unsqueeze(1)
    curr_Q = critic(s, a)
    with torch.no_grad():
        expected_Q = r + gamma * mask * target_critic(s2, target_actor(s2))
    return F.mse_loss(curr_Q, expected_Q)  # fails-here


random.seed(0)
rng = np.random.default_rng(0)
buf = BasicBuffer(1000)
for t in range(128):
    s = rng.normal(size=3).astype(np.float32)
    a = rng.uniform(-1, 1, size=1).astype(np.float32)
    buf.push(s, a, float(-np.abs(a).sum()), s * 0.9, t % 40 == 39)
critic, target_critic, target_actor = Critic(3, 1), Critic(3, 1), Actor(3, 1)
opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
loss = compute_loss(critic, target_critic, target_actor, buf.sample(32))
opt.zero_grad()
loss.backward()
opt.step()
print("critic loss", round(loss.item(), 4), "loss dtype", loss.dtype)
