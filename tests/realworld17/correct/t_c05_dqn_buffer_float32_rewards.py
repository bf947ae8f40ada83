"""DQN agent whose ReplayBuffer stores rewards as np.float32 next to int64 actions and bool terminals, so the MSE between q_pred and q_target stays in float32
source: https://github.com/philtabor/Deep-Q-Learning-Paper-To-Code/issues/19
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch as T
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, max_size, input_shape):
        self.mem_size, self.mem_cntr = max_size, 0
        self.state_memory = np.zeros((max_size, *input_shape), dtype=np.float32)
        self.new_state_memory = np.zeros((max_size, *input_shape), dtype=np.float32)
        self.action_memory = np.zeros(max_size, dtype=np.int64)
        self.reward_memory = np.zeros(max_size, dtype=np.float32)
        self.terminal_memory = np.zeros(max_size, dtype=np.bool_)

    def store_transition(self, s, a, r, s_, done):
        i = self.mem_cntr % self.mem_size
        self.state_memory[i], self.action_memory[i], self.reward_memory[i] = s, a, r
        self.new_state_memory[i], self.terminal_memory[i] = s_, done
        self.mem_cntr += 1

    def sample_buffer(self, batch_size, rng):
        idx = rng.choice(min(self.mem_cntr, self.mem_size), batch_size, replace=False)
        return (self.state_memory[idx], self.action_memory[idx], self.reward_memory[idx],
                self.new_state_memory[idx], self.terminal_memory[idx])


rng = np.random.default_rng(0)
memory = ReplayBuffer(1000, (4,))
q_eval = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 3))
q_next = nn.Sequential(nn.Linear(4, 64), nn.ReLU(), nn.Linear(64, 3))
optimizer = T.optim.RMSprop(q_eval.parameters(), lr=1e-3)
for t in range(200):
    s = rng.normal(size=4).astype(np.float32)
    memory.store_transition(s, rng.integers(3), float(rng.random() > 0.5), s + 0.1, t % 50 == 49)
states, actions, rewards, states_, dones = [T.tensor(x) for x in memory.sample_buffer(32, rng)]
q_pred = q_eval(states)[T.arange(32), actions]
with T.no_grad():
    q_target_next = q_next(states_).max(dim=1)[0]
    q_target_next[dones] = 0.0
q_target = rewards + 0.99 * q_target_next
loss = nn.functional.mse_loss(q_pred, q_target)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print("loss", round(loss.item(), 4), "loss dtype", loss.dtype)
