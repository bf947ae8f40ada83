"""TD3-style critic update whose replay buffer keeps reward/mask in a float32 array, so q_target and the MSE critic loss stay float32
source: https://github.com/AI4Finance-Foundation/ElegantRL/issues/9
reported-error: RuntimeError: Found dtype Double but expected Float (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


class ReplayBuffer:
    def __init__(self, max_len, state_dim, action_dim):
        self.max_len, self.now_len, self.next_idx = max_len, 0, 0
        self.buf_state = np.empty((max_len, state_dim), dtype=np.float32)
        self.buf_action = np.empty((max_len, action_dim), dtype=np.float32)
        self.buf_other = np.empty((max_len, 2), dtype=np.float32)
        self.buf_next_state = np.empty((max_len, state_dim), dtype=np.float32)

    def append_buffer(self, state, other, action, next_state):
        i = self.next_idx
        self.buf_state[i], self.buf_other[i] = state, other
        self.buf_action[i], self.buf_next_state[i] = action, next_state
        self.next_idx = (i + 1) % self.max_len
        self.now_len = min(self.now_len + 1, self.max_len)

    def sample_batch(self, batch_size):
        idx = np.random.randint(self.now_len, size=batch_size)
        other = torch.as_tensor(self.buf_other[idx])
        return (other[:, 0:1], other[:, 1:2], torch.as_tensor(self.buf_state[idx]),
                torch.as_tensor(self.buf_action[idx]), torch.as_tensor(self.buf_next_state[idx]))


class CriticTwin(nn.Module):
    def __init__(self, state_dim, action_dim, mid_dim=64):
        super().__init__()
        self.net_q1 = nn.Sequential(nn.Linear(state_dim + action_dim, mid_dim), nn.ReLU(), nn.Linear(mid_dim, 1))
        self.net_q2 = nn.Sequential(nn.Linear(state_dim + action_dim, mid_dim), nn.ReLU(), nn.Linear(mid_dim, 1))

    def get_q1_q2(self, state, action):
        sa = torch.cat((state, action), dim=1)
        return self.net_q1(sa), self.net_q2(sa)


def update_critic(cri, cri_target, act_target, buffer, criterion, optimizer, gamma=0.99):
    reward, mask, state, action, next_s = buffer.sample_batch(64)
    with torch.no_grad():
        next_a = act_target(next_s).tanh()
        next_q = torch.min(*cri_target.get_q1_q2(next_s, next_a))
        q_target = reward + mask * next_q
    q1_value, q2_value = cri.get_q1_q2(state, action)
    critic_loss = criterion(q1_value, q_target) + criterion(q2_value, q_target)
    optimizer.zero_grad()
    critic_loss.backward()
    optimizer.step()
    return critic_loss


if __name__ == "__main__":
    state_dim, action_dim, gamma = 8, 2, 0.99
    buffer = ReplayBuffer(1000, state_dim, action_dim)
    for _ in range(256):
        s, a, s2 = np.random.randn(state_dim), np.random.rand(action_dim), np.random.randn(state_dim)
        r, done = np.random.randn(), np.random.rand() < 0.05
        buffer.append_buffer(s, (r, 0.0 if done else gamma), a, s2)
    cri, cri_target = CriticTwin(state_dim, action_dim), CriticTwin(state_dim, action_dim)
    act_target = nn.Sequential(nn.Linear(state_dim, 64), nn.ReLU(), nn.Linear(64, action_dim))
    optimizer = torch.optim.Adam(cri.parameters(), lr=1e-4)
    criterion = nn.MSELoss()
    for step in range(3):
        critic_loss = update_critic(cri, cri_target, act_target, buffer, criterion, optimizer)
        print(step, critic_loss.item(), critic_loss.dtype)
