"""DQN agent (Deep-Q-Learning-Paper-To-Code style): ReplayBuffer stores rewards in np.zeros(mem_size) (float64) and bool terminals; learn() builds q_target from T.tensor(rewards) so the MSELoss against the float32 q_pred is computed silently in float64
source: https://github.com/philtabor/Deep-Q-Learning-Paper-To-Code/issues/19
reported-error: none raised (dqn_agent.py loss computed from the replay buffer's q_target and q_pred)
outcome: ok (silent: self.q_eval.loss(q_target, q_pred) at line 60 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 20
expect: DG008
"""
import numpy as np
import torch as T
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, max_size, input_shape):
        self.mem_size = max_size
        self.mem_cntr = 0
        self.state_memory = np.zeros((max_size, *input_shape), dtype=np.float32)
        self.new_state_memory = np.zeros((max_size, *input_shape), dtype=np.float32)
        self.action_memory = np.zeros(max_size, dtype=np.int64)
        self.reward_memory = np.zeros(max_size)  # root-cause
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


class DeepQNetwork(nn.Module):
    def __init__(self, lr, n_actions, input_dims):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(input_dims, 64), nn.ReLU(), nn.Linear(64, n_actions))
        self.optimizer = T.optim.RMSprop(self.parameters(), lr=lr)
        self.loss = nn.MSELoss()

    def forward(self, state):
        return self.fc(state)


class DQNAgent:
    def __init__(self, gamma=0.99, lr=1e-3, n_actions=3, input_dims=4, batch_size=32):
        self.gamma, self.batch_size = gamma, batch_size
        self.memory = ReplayBuffer(1000, (input_dims,))
        self.q_eval = DeepQNetwork(lr, n_actions, input_dims)
        self.q_next = DeepQNetwork(lr, n_actions, input_dims)

    def learn(self, rng):
        states, actions, rewards, states_, dones = [T.tensor(x) for x in self.memory.sample_buffer(self.batch_size, rng)]
        indices = np.arange(self.batch_size)
        q_pred = self.q_eval(states)[indices, actions]
        q_next = self.q_next(states_).max(dim=1)[0]
        q_next[dones] = 0.0
        q_target = rewards + self.gamma * q_next
        loss = self.q_eval.loss(q_target, q_pred)  # fails-here
        self.q_eval.optimizer.zero_grad()
        loss.backward()
        self.q_eval.optimizer.step()
        return loss


rng = np.random.default_rng(0)
agent = DQNAgent()
for t in range(200):
    s = rng.normal(size=4).astype(np.float32)
    agent.memory.store_transition(s, rng.integers(3), float(rng.random() > 0.5), s + 0.1, t % 50 == 49)
loss = agent.learn(rng)
print("loss", round(loss.item(), 4), "loss dtype", loss.dtype)
