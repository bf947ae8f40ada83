"""PPO agent (T-Rex runner): the rollout buffer, shared with a continuous-action variant, keeps actions in an np.float32 array, update() turns transition_dict["actions"] into a tensor without dtype=torch.long, and log_softmax(...).gather(1, action) rejects the int32 index
source: https://github.com/ShwStone/TRex-PPO/issues/1
reported-error: RuntimeError: gather(): Expected dtype int64 for index
outcome: RuntimeError: gather(): Expected dtype int32/int64 for index at line 43
root-cause: line 17
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class RolloutBuffer:
    def __init__(self, size, obs_dim):
        self.states = np.zeros((size, obs_dim), dtype=np.float32)
        self.actions = np.zeros(size, dtype=np.float32)  # root-cause
        self.rewards = np.zeros(size, dtype=np.float32)
        self.ptr = 0

    def add(self, s, a, r):
        self.states[self.ptr], self.actions[self.ptr], self.rewards[self.ptr] = s, a, r
        self.ptr += 1

    def as_dict(self):
        return {"states": self.states[:self.ptr], "actions": self.actions[:self.ptr], "rewards": self.rewards[:self.ptr]}


class PPOAgent:
    def __init__(self, obs_dim, n_actions, device="cpu"):
        self.device = torch.device(device)
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions)).to(self.device)
        self.optimizer = torch.optim.Adam(self.actor.parameters(), lr=3e-4)

    def take_action(self, state):
        logits = self.actor(torch.as_tensor(state, device=self.device))
        return torch.distributions.Categorical(logits=logits).sample().item()

    def update(self, transition_dict):
        state = torch.tensor(transition_dict["states"]).to(self.device)
        action = torch.tensor(np.array(transition_dict["actions"])).view(-1, 1).to(self.device)
        reward = torch.tensor(transition_dict["rewards"]).to(self.device)
        old_log_prob = F.log_softmax(self.actor(state), dim=-1).gather(1, action).detach()  # fails-here
        for _ in range(4):
            log_prob = F.log_softmax(self.actor(state), dim=-1).gather(1, action)
            ratio = torch.exp(log_prob - old_log_prob).squeeze(1)
            loss = -torch.min(ratio * reward, torch.clamp(ratio, 0.8, 1.2) * reward).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return ratio.mean().item()


rng = np.random.default_rng(0)
agent = PPOAgent(obs_dim=6, n_actions=3)
buf = RolloutBuffer(64, 6)
for t in range(64):
    s = rng.normal(size=6).astype(np.float32)
    a = agent.take_action(s)
    buf.add(s, a, float(a == 1))
print("ratio", agent.update(buf.as_dict()))
