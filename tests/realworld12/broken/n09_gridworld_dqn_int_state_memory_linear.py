"""Grid-world DQN agent whose ReplayMemory declares state_memory with dtype=np.int64 (copied from the action_memory line, following the "make sure they are np.int64" advice); sampled states become int64 tensors and the float32 Q-network's first Linear rejects them in learn()
source: https://github.com/philtabor/Deep-Q-Learning-Paper-To-Code/issues/2
reported-error: dtype problems in the replay memory arrays (maintainer: declare the memory arrays with dtype=np.int64)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Long and Float at line 64
root-cause: line 16
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


class ReplayMemory:
    def __init__(self, max_size, input_shape):
        self.mem_size, self.mem_cntr = max_size, 0
        self.state_memory = np.zeros((max_size, *input_shape), dtype=np.int64)  # root-cause
        self.new_state_memory = np.zeros((max_size, *input_shape), dtype=np.int64)
        self.action_memory = np.zeros(max_size, dtype=np.int64)
        self.reward_memory = np.zeros(max_size, dtype=np.float32)
        self.terminal_memory = np.zeros(max_size, dtype=bool)

    def store(self, s, a, r, s_, done):
        i = self.mem_cntr % self.mem_size
        self.state_memory[i], self.new_state_memory[i] = s, s_
        self.action_memory[i], self.reward_memory[i], self.terminal_memory[i] = a, r, done
        self.mem_cntr += 1

    def sample(self, batch, rng):
        idx = rng.choice(min(self.mem_cntr, self.mem_size), batch, replace=False)
        return (self.state_memory[idx], self.action_memory[idx], self.reward_memory[idx],
                self.new_state_memory[idx], self.terminal_memory[idx])


class GridWorld:
    def __init__(self, size=5):
        self.size = size

    def reset(self):
        self.pos = np.array([0, 0])
        return self.obs()

    def obs(self):
        grid = np.zeros((self.size, self.size), dtype=np.int64)
        grid[tuple(self.pos)] = 1
        return grid.ravel()

    def step(self, a):
        move = [(0, 1), (1, 0), (0, -1), (-1, 0)][a]
        self.pos = np.clip(self.pos + move, 0, self.size - 1)
        done = bool((self.pos == self.size - 1).all())
        return self.obs(), (1.0 if done else -0.01), done


class Agent:
    def __init__(self, n_obs, n_actions, gamma=0.99):
        self.q_eval = nn.Sequential(nn.Linear(n_obs, 64), nn.ReLU(), nn.Linear(64, n_actions))
        self.opt = torch.optim.Adam(self.q_eval.parameters(), lr=1e-3)
        self.memory = ReplayMemory(500, (n_obs,))
        self.gamma, self.rng = gamma, np.random.default_rng(0)

    def learn(self, batch=32):
        s, a, r, s_, done = (torch.as_tensor(v) for v in self.memory.sample(batch, self.rng))
        indices = torch.arange(batch)
        q_pred = self.q_eval(s)[indices, a]  # fails-here
        q_next = self.q_eval(s_).max(dim=1).values
        q_next[done] = 0.0
        loss = nn.functional.mse_loss(q_pred, r + self.gamma * q_next.detach())
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


if __name__ == "__main__":
    env, agent = GridWorld(), Agent(25, 4)
    rng = np.random.default_rng(1)
    s = env.reset()
    for t in range(200):
        a = int(rng.integers(4))
        s_, r, done = env.step(a)
        agent.memory.store(s, a, r, s_, done)
        s = env.reset() if done else s_
        if agent.memory.mem_cntr >= 64:
            print(f"step {t}: loss {agent.learn():.4f}")
