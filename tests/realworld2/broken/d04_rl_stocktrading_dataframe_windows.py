"""Notebook RL stock trader: price windows sliced from a pandas DataFrame become float64 states
source: https://github.com/tomgrek/RL-stocktrading/issues/1
reported-error: RuntimeError: expected scalar type Double but found Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 31
root-cause: line 66
expect: DG004
"""

# In[1]:
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F

# In[2]:
rng = np.random.default_rng(1)
df = pd.DataFrame({"close": 100 + rng.standard_normal(300).cumsum(),
                   "volume": rng.integers(1000, 5000, 300)})
df["ret"] = df["close"].pct_change().fillna(0)
WINDOW = 16

# In[3]:
class Policy(nn.Module):
    def __init__(self, window=WINDOW, n_actions=3):
        super().__init__()
        self.affine1 = nn.Linear(window * 2, 64)
        self.affine2 = nn.Linear(64, n_actions)

    def forward(self, x):
        x = F.relu(self.affine1(x))  # fails-here
        return F.softmax(self.affine2(x), dim=-1)

policy = Policy()
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
gamma = 0.99

# In[4]:
class Env:
    def __init__(self, df, window):
        self.df, self.window = df, window

    def reset(self):
        self.t = self.window
        self.position = 0
        return self._obs()

    def _obs(self):
        w = self.df[["ret", "volume"]].iloc[self.t - self.window:self.t]
        w = (w - w.mean()) / (w.std() + 1e-8)
        return w.values.flatten()

    def step(self, action):
        self.position = action - 1
        self.t += 1
        reward = self.position * self.df["ret"].iloc[self.t]
        done = self.t >= len(self.df) - 1
        return self._obs(), reward, done

# In[25]:
env = Env(df, WINDOW)
for episode in range(3):
    state = env.reset()
    log_probs, rewards = [], []
    for _ in range(50):
        state = torch.from_numpy(state).unsqueeze(0)  # root-cause
        probs = policy(state)
        m = torch.distributions.Categorical(probs)
        action = m.sample()
        log_probs.append(m.log_prob(action))
        state, reward, done = env.step(action.item())
        rewards.append(reward)
        if done:
            break
    R, returns = 0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns, dtype=torch.float32)
    loss = -(torch.cat(log_probs) * returns).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(episode, loss.item())
