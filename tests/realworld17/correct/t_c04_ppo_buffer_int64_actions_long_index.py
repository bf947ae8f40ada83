"""PPO agent whose rollout buffer stores discrete actions as np.int64 and update() builds the index with dtype=torch.long before log_softmax(...).gather
source: https://github.com/ShwStone/TRex-PPO/issues/1
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class RolloutBuffer:
    def __init__(self, size, obs_dim):
        self.states = np.zeros((size, obs_dim), dtype=np.float32)
        self.actions = np.zeros(size, dtype=np.int64)
        self.rewards = np.zeros(size, dtype=np.float32)
        self.dones = np.zeros(size, dtype=bool)
        self.ptr = 0

    def add(self, s, a, r, d):
        self.states[self.ptr], self.actions[self.ptr], self.rewards[self.ptr], self.dones[self.ptr] = s, a, r, d
        self.ptr += 1


class PPOAgent:
    def __init__(self, obs_dim, n_actions):
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))
        self.optimizer = torch.optim.Adam(self.actor.parameters(), lr=3e-4)

    def take_action(self, state):
        return torch.distributions.Categorical(logits=self.actor(torch.as_tensor(state))).sample().item()

    def update(self, buf):
        state = torch.from_numpy(buf.states[:buf.ptr])
        action = torch.tensor(buf.actions[:buf.ptr], dtype=torch.long).view(-1, 1)
        reward = torch.from_numpy(buf.rewards[:buf.ptr])
        old = F.log_softmax(self.actor(state), dim=-1).gather(1, action).detach()
        for _ in range(4):
            ratio = torch.exp(F.log_softmax(self.actor(state), dim=-1).gather(1, action) - old).squeeze(1)
            loss = -torch.min(ratio * reward, torch.clamp(ratio, 0.8, 1.2) * reward).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return ratio.mean().item()


rng = np.random.default_rng(0)
agent, buf = PPOAgent(6, 3), RolloutBuffer(64, 6)
for t in range(64):
    s = rng.normal(size=6).astype(np.float32)
    a = agent.take_action(s)
    buf.add(s, a, float(a == 1), t == 63)
print("ratio", agent.update(buf))
