"""DQN whose replay buffer still packs each transition into one float32 row, but calc_loss() splits the row and converts the action column with .long() before Q-values.gather(), and reads rewards as float32
source: https://github.com/PacktPublishing/Deep-Reinforcement-Learning-Hands-On-Second-Edition/issues/45
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

OBS = 8


class PackedBuffer:
    def __init__(self, capacity):
        self.rows = np.zeros((capacity, 2 * OBS + 3), dtype=np.float32)
        self.size, self.rng = 0, np.random.default_rng(0)

    def append(self, s, a, r, done, s2):
        self.rows[self.size % len(self.rows)] = np.concatenate([s, [a, r, done], s2])
        self.size += 1

    def sample(self, n):
        return torch.from_numpy(self.rows[self.rng.choice(min(self.size, len(self.rows)), n, replace=False)])


def split(batch):
    s, a, r, done, s2 = batch[:, :OBS], batch[:, OBS], batch[:, OBS + 1], batch[:, OBS + 2], batch[:, OBS + 3:]
    return s, a.long(), r, done.bool(), s2


def calc_loss(batch, net, tgt_net, gamma=0.99):
    s, a, r, done, s2 = split(batch)
    q = net(s).gather(1, a.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        q_next = tgt_net(s2).max(1)[0]
        q_next[done] = 0.0
    return nn.functional.mse_loss(q, r + gamma * q_next)


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    net = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU(), nn.Linear(64, 6))
    tgt = nn.Sequential(nn.Linear(OBS, 64), nn.ReLU(), nn.Linear(64, 6))
    tgt.load_state_dict(net.state_dict())
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    buf = PackedBuffer(500)
    s = rng.standard_normal(OBS)
    for frame in range(120):
        s2 = rng.standard_normal(OBS)
        buf.append(s, rng.integers(6), float(rng.random() < 0.1), frame % 40 == 39, s2)
        s = s2
        if buf.size >= 64:
            loss = calc_loss(buf.sample(32), net, tgt)
            opt.zero_grad()
            loss.backward()
            opt.step()
    print(f"final loss {loss.item():.4f}")
