"""REINFORCE on a CartPole-like environment (PyTorch examples reinforce.py layout): the policy's affine1/affine2 layers are built first, and the environment wrapper created afterwards switches the global default dtype to float64 for its return computation, so torch.tensor(state) of plain Python floats becomes float64 while the policy keeps float32 weights
source: https://github.com/pytorch/pytorch/issues/125552
reported-error: nn.Linear(4, config.width) weights came out float64 instead of float32 (the default dtype had been changed with torch.set_default_dtype; the answer: the dtype depends on torch.get_default_dtype() at construction time)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 35
root-cause: line 42
expect: DG001
"""
import math
import random
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Config:
    width: int = 64
    gamma: float = 0.99
    lr: float = 1e-2
    episodes: int = 3
    seed: int = 543


# ---- policy.py
class Policy(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.affine1 = nn.Linear(4, config.width)
        self.dropout = nn.Dropout(p=0.6)
        self.affine2 = nn.Linear(config.width, 2)

    def forward(self, x):
        x = F.relu(self.dropout(self.affine1(x)))  # fails-here
        return F.softmax(self.affine2(x), dim=1)


# ---- envs/cartpole.py
class CartPoleEnv:
    def __init__(self, seed):
        torch.set_default_dtype(torch.float64)  # root-cause
        self.rng = random.Random(seed)
        self.state = None

    def reset(self):
        self.state = [self.rng.uniform(-0.05, 0.05) for _ in range(4)]
        return list(self.state)

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = 10.0 if action == 1 else -10.0
        theta_acc = (9.8 * math.sin(theta) - math.cos(theta) * force / 1.1) / (0.5 * (4.0 / 3.0 - 0.1 * math.cos(theta) ** 2 / 1.1))
        x_dot += 0.02 * (force / 1.1)
        theta_dot += 0.02 * theta_acc
        self.state = [x + 0.02 * x_dot, x_dot, theta + 0.02 * theta_dot, theta_dot]
        done = abs(self.state[2]) > 0.21 or abs(self.state[0]) > 2.4
        return list(self.state), 1.0, done

    def discounted_returns(self, rewards, gamma):
        R, returns = 0.0, []
        for r in reversed(rewards):
            R = r + gamma * R
            returns.insert(0, R)
        returns = torch.tensor(returns)
        return (returns - returns.mean()) / (returns.std() + 1e-8)


# ---- reinforce.py
def select_action(policy, state, log_probs):
    state = torch.tensor(state).unsqueeze(0)
    probs = policy(state)
    m = torch.distributions.Categorical(probs)
    action = m.sample()
    log_probs.append(m.log_prob(action))
    return action.item()


def main(config):
    torch.manual_seed(config.seed)
    policy = Policy(config)
    optimizer = torch.optim.Adam(policy.parameters(), lr=config.lr)
    env = CartPoleEnv(config.seed)
    for episode in range(config.episodes):
        state, rewards, log_probs = env.reset(), [], []
        for _ in range(200):
            state, reward, done = env.step(select_action(policy, state, log_probs))
            rewards.append(reward)
            if done:
                break
        returns = env.discounted_returns(rewards, config.gamma)
        loss = torch.cat([-lp * R for lp, R in zip(log_probs, returns)]).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("episode", episode, "length", len(rewards))


if __name__ == "__main__":
    main(Config())
