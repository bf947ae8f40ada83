"""PPO critic update whose rewards-to-go are still accumulated in a float64 NumPy buffer, but compute_rtgs() returns torch.as_tensor(rtgs, dtype=torch.float32), so nn.MSELoss(V, batch_rtgs) stays float32
source: https://github.com/ericyangyu/PPO-for-Beginners/issues/8
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


def compute_rtgs(batch_rews, gamma=0.95):
    rtgs = np.zeros(sum(len(ep) for ep in batch_rews))
    i = len(rtgs)
    for ep_rews in reversed(batch_rews):
        discounted = 0.0
        for rew in reversed(ep_rews):
            discounted = rew + gamma * discounted
            i -= 1
            rtgs[i] = discounted
    return torch.as_tensor(rtgs, dtype=torch.float32)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    critic = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    for it in range(3):
        rews = [list(rng.random(20)) for _ in range(4)]
        batch_obs = torch.from_numpy(rng.standard_normal((80, 4)).astype(np.float32))
        batch_rtgs = compute_rtgs(rews)
        V = critic(batch_obs).squeeze(-1)
        critic_loss = nn.MSELoss()(V, batch_rtgs)
        opt.zero_grad()
        critic_loss.backward()
        opt.step()
        print(f"iter {it}: critic loss {critic_loss.item():.4f} ({critic_loss.dtype})")
