"""Soft actor-critic style learner whose replay buffer preallocates its storage on the training device, but random_batch() draws the sample indices with torch.randint and no device; on a GPU, index_select of the CUDA storage with the CPU index fails
source: https://github.com/LaurentMazare/tch-rs/issues/83
reported-error: random_batch creates the index tensor on the CPU while the data tensors are on CUDA, so index_select raises
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method wrapper_CUDA__index_select) (not run on a GPU here) at line 29; on CPU: ok
root-cause: line 28
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn


class DeviceReplayBuffer:
    def __init__(self, capacity, obs_dim, act_dim, device):
        self.obs = torch.zeros(capacity, obs_dim, device=device)
        self.act = torch.zeros(capacity, act_dim, device=device)
        self.rew = torch.zeros(capacity, 1, device=device)
        self.next_obs = torch.zeros(capacity, obs_dim, device=device)
        self.capacity, self.size, self.ptr, self.device = capacity, 0, 0, device

    def add(self, o, a, r, o2):
        for buf, val in ((self.obs, o), (self.act, a), (self.rew, [r]), (self.next_obs, o2)):
            buf[self.ptr] = torch.as_tensor(np.asarray(val, dtype=np.float32), device=self.device)
        self.ptr = (self.ptr + 1) % self.capacity
        self.size = min(self.size + 1, self.capacity)

    def random_batch(self, batch_size):
        index = torch.randint(0, self.size, (batch_size,))  # root-cause
        return [t.index_select(0, index) for t in (self.obs, self.act, self.rew, self.next_obs)]  # fails-here


def mlp(d_in, d_out):
    return nn.Sequential(nn.Linear(d_in, 64), nn.ReLU(), nn.Linear(64, d_out))


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    buffer = DeviceReplayBuffer(256, 3, 1, device)
    q = mlp(4, 1).to(device)
    pi = mlp(3, 1).to(device)
    q_opt = torch.optim.Adam(q.parameters(), lr=3e-4)
    o = rng.standard_normal(3)
    for t in range(80):
        a = np.tanh(rng.standard_normal(1))
        o2 = o + 0.1 * a.sum() + 0.01 * rng.standard_normal(3)
        buffer.add(o, a, -float(np.square(o2).sum()), o2)
        o = o2
        if buffer.size >= 32:
            obs, act, rew, next_obs = buffer.random_batch(32)
            with torch.no_grad():
                target = rew + 0.99 * q(torch.cat([next_obs, torch.tanh(pi(next_obs))], -1))
            loss = nn.functional.mse_loss(q(torch.cat([obs, act], -1)), target)
            q_opt.zero_grad()
            loss.backward()
            q_opt.step()
    print(f"q loss {loss.item():.4f}")
