"""REINFORCE agent whose setup_torch(cfg) helper still calls torch.set_default_tensor_type("torch.FloatTensor") to "make everything float32"; on PyTorch 2.x this only emits the deprecation UserWarning in every run's logs (the call changes nothing on CPU)
source: https://github.com/pytorch/pytorch/issues/120584
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 16
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn


def setup_torch(cfg):
    torch.manual_seed(cfg["seed"])
    if cfg.get("float32", True):
        torch.set_default_tensor_type("torch.FloatTensor")  # root-cause
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs))


def run_episode(policy, rng, device, T=20):
    logps, rewards = [], []
    for t in range(T):
        obs = torch.as_tensor(rng.normal(size=4), dtype=torch.float32, device=device)
        dist = policy(obs)
        a = dist.sample()
        logps.append(dist.log_prob(a))
        rewards.append(1.0 if a.item() == int(obs[0] > 0) else 0.0)
    return torch.stack(logps), rewards


cfg = {"seed": 0, "float32": True, "lr": 1e-2, "episodes": 5, "gamma": 0.99}
device = setup_torch(cfg)
policy = Policy(4, 2).to(device)
opt = torch.optim.Adam(policy.parameters(), lr=cfg["lr"])
rng = np.random.default_rng(0)
for ep in range(cfg["episodes"]):
    logps, rewards = run_episode(policy, rng, device)
    G, returns = 0.0, []
    for r in reversed(rewards):
        G = r + cfg["gamma"] * G
        returns.insert(0, G)
    returns = torch.tensor(returns, dtype=torch.float32, device=device)
    loss = -(logps * (returns - returns.mean())).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("episode", ep, "return", sum(rewards))
