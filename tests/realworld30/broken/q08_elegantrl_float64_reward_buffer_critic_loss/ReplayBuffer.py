import numpy as np
import torch


class BufferArray:
    def __init__(self, max_len, state_dim, action_dim):
        self.max_len = max_len
        self.now_len = 0
        self.next_idx = 0
        self.states = np.empty((max_len, state_dim), dtype=np.float32)
        self.next_states = np.empty((max_len, state_dim), dtype=np.float32)
        self.actions = np.empty((max_len, action_dim), dtype=np.float32)
        self.rewards_masks = np.empty((max_len, 2))  # root-cause

    def add_memo(self, state, action, reward, mask, next_state):
        i = self.next_idx
        self.states[i], self.actions[i], self.next_states[i] = state, action, next_state
        self.rewards_masks[i] = (reward, mask)
        self.next_idx = (self.next_idx + 1) % self.max_len
        self.now_len = min(self.now_len + 1, self.max_len)

    def random_sample(self, batch_size, device):
        indices = np.random.randint(self.now_len, size=batch_size)
        rewards_masks = torch.as_tensor(self.rewards_masks[indices], device=device)
        return (rewards_masks[:, 0:1], rewards_masks[:, 1:2],
                torch.as_tensor(self.states[indices], device=device),
                torch.as_tensor(self.actions[indices], device=device),
                torch.as_tensor(self.next_states[indices], device=device))
