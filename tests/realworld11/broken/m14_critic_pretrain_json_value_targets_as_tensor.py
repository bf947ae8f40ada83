"""Critic pre-training from logged episodes: value targets are parsed from a JSON log into a NumPy array (float64) and converted with torch.as_tensor in a ValueTargets helper; F.mse_loss against the float32 critic output then yields a float64 loss, and early stopping compares float64 numbers nobody asked for
source: https://github.com/nikhilbarhate99/PPO-PyTorch/issues/31
reported-error: loss.mean().backward() crashes with a Double/Float mismatch in the value loss (older PyTorch); today the value loss is silently float64
outcome: ok (silent: F.mse_loss(values, targets) at line 33 returns a float64 loss, printed as "loss dtype torch.float64")
root-cause: line 24
expect: DG008
"""
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

LOG = json.dumps({"episodes": [{"obs": [[(t * k) % 5 / 5 for k in range(1, 4)] for t in range(10)],
                                "returns": [round(1.0 - t / 10, 2) for t in range(10)]} for _ in range(4)]})


class ValueTargets:
    def __init__(self, log_text):
        episodes = json.loads(log_text)["episodes"]
        self.obs = torch.tensor([o for ep in episodes for o in ep["obs"]], dtype=torch.float32)
        returns = np.array([r for ep in episodes for r in ep["returns"]])
        self.targets = torch.as_tensor(returns)  # root-cause

    def minibatches(self, bs=8):
        for s in range(0, len(self.obs), bs):
            yield self.obs[s:s + bs], self.targets[s:s + bs]


def value_loss(critic, obs, targets):
    values = critic(obs).squeeze(-1)
    return F.mse_loss(values, targets)  # fails-here


def pretrain(critic, data, epochs=20, patience=4):
    opt = torch.optim.Adam(critic.parameters(), lr=1e-2)
    best, wait = float("inf"), 0
    for epoch in range(epochs):
        total = 0.0
        for obs, targets in data.minibatches():
            loss = value_loss(critic, obs, targets)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if total < best:
            best, wait = total, 0
        else:
            wait += 1
            if wait >= patience:
                break
    return loss


if __name__ == "__main__":
    torch.manual_seed(0)
    critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
    loss = pretrain(critic, ValueTargets(LOG))
    print(f"loss dtype {loss.dtype}")
