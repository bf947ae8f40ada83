"""Self-play actor-critic: a yield-based rollout generator stores observations from the environment's np.zeros/np.random board encodings, and the learner's make_batch() stacks them with torch.from_numpy, so the float64 observation batch reaches the float32 policy network
source: https://github.com/DeNA/HandyRL/pull/86
reported-error: dtype mismatch after torch.from_numpy of float64 NumPy outputs (fix: produce np.float32)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 49
root-cause: line 19
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


class TicTacToe:
    def __init__(self, rng):
        self.rng = rng
        self.board = np.zeros(9)

    def observation(self):
        obs = np.zeros((2, 9))  # root-cause
        obs[0, self.board == 1] = 1.0
        obs[1, self.board == -1] = 1.0
        return obs.reshape(-1)

    def step(self, action, player):
        self.board[action] = player
        return float(self.rng.random() < 0.1)


def rollouts(n_episodes, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n_episodes):
        env, player = TicTacToe(rng), 1
        for _turn in range(5):
            legal = np.flatnonzero(env.board == 0)
            action = int(rng.choice(legal))
            obs = env.observation()
            reward = env.step(action, player)
            yield obs, action, reward
            player = -player


class PolicyValueNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(18, 64), nn.ReLU())
        self.policy, self.value = nn.Linear(64, 9), nn.Linear(64, 1)

    def forward(self, x):
        h = self.body(x)  # fails-here
        return self.policy(h), torch.tanh(self.value(h)).squeeze(-1)


def make_batch(samples):
    obs, actions, rewards = zip(*samples)
    return (torch.from_numpy(np.stack(obs)), torch.tensor(actions),
            torch.tensor(rewards, dtype=torch.float32))


net = PolicyValueNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
buffer = list(rollouts(20))
for it in range(3):
    obs, actions, rewards = make_batch(buffer[it * 32:(it + 1) * 32])
    logits, values = net(obs)
    loss = nn.functional.cross_entropy(logits, actions) + nn.functional.mse_loss(values, rewards)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
