"""DQN on a small pole-balancing environment: the environment emits float32 observations, but the ReplayBuffer pre-allocates its storage with np.zeros(shape) (NumPy's default float64), so every sampled batch handed to the float32 Q-network is double
source: https://github.com/thu-ml/tianshou/pull/64
reported-error: Replay buffers are systematically using the default dtype for numpy array internal buffers, namely float64 (Infer the right dtype for replay buffers)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 60
root-cause: line 33
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- env.py
class PoleEnv:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.s = self.rng.uniform(-0.05, 0.05, 4).astype(np.float32)
        return self.s

    def step(self, a):
        x, v, th, w = self.s
        w = w + (0.2 if a == 1 else -0.2) + 0.3 * np.sin(th)
        self.s = np.array([x + 0.02 * v, v, th + 0.02 * w, w], dtype=np.float32)
        done = abs(self.s[2]) > 0.5
        return self.s, 1.0, done


# ---- data/buffer.py
class ReplayBuffer:
    def __init__(self, size, obs_shape):
        self.obs = np.zeros((size, *obs_shape))  # root-cause
        self.obs_next = np.zeros((size, *obs_shape))
        self.act = np.zeros(size, dtype=np.int64)
        self.rew = np.zeros(size, dtype=np.float32)
        self.done = np.zeros(size, dtype=np.float32)
        self.size, self.ptr, self.n = size, 0, 0

    def add(self, obs, act, rew, done, obs_next):
        i = self.ptr
        self.obs[i], self.act[i], self.rew[i], self.done[i], self.obs_next[i] = obs, act, rew, done, obs_next
        self.ptr, self.n = (i + 1) % self.size, min(self.n + 1, self.size)

    def sample(self, batch_size, rng):
        idx = rng.integers(0, self.n, batch_size)
        return (torch.as_tensor(self.obs[idx]), torch.as_tensor(self.act[idx]), torch.as_tensor(self.rew[idx]),
                torch.as_tensor(self.done[idx]), torch.as_tensor(self.obs_next[idx]))


# ---- policy/dqn.py
class DQNPolicy:
    def __init__(self, gamma=0.99):
        self.q = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 2))
        self.opt = torch.optim.Adam(self.q.parameters(), lr=1e-3)
        self.gamma = gamma

    def learn(self, obs, act, rew, done, obs_next):
        with torch.no_grad():
            target = rew + self.gamma * (1 - done) * self.q(obs_next).max(1).values  # fails-here
        q = self.q(obs).gather(1, act[:, None]).squeeze(1)
        loss = nn.functional.smooth_l1_loss(q, target)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    env, buf, policy, rng = PoleEnv(), ReplayBuffer(1000, (4,)), DQNPolicy(), np.random.default_rng(0)
    obs = env.reset()
    for step in range(300):
        act = int(rng.integers(2))
        obs_next, rew, done = env.step(act)
        buf.add(obs, act, rew, done, obs_next)
        obs = env.reset() if done else obs_next
        if step >= 64 and step % 4 == 0:
            loss = policy.learn(*buf.sample(32, rng))
    print("last loss", loss)
