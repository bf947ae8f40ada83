"""PPO update with bf16 mixed precision done the safe way (as in the PufferLib bf16 support): the policy parameters and AdamW state stay float32, only the forward pass runs under torch.autocast(bfloat16), the logits and values are cast back with .float() before the losses, and the advantages and their statistics are kept in float32
source: https://github.com/PufferAI/PufferLib/pull/479
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainConfig:
    precision: str = "bfloat16"
    lr: float = 3e-4
    clip_coef: float = 0.2
    vf_coef: float = 0.5
    update_epochs: int = 2


class Policy(nn.Module):
    def __init__(self, obs_dim=16, n_actions=4, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU())
        self.actor = nn.Linear(hidden, n_actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs):
        h = self.encoder(obs)
        return self.actor(h), self.critic(h).squeeze(-1)


def compute_advantages(rewards, values, gamma=0.99):
    returns = torch.zeros_like(rewards, dtype=torch.float32)
    running = torch.zeros(rewards.shape[1], dtype=torch.float32)
    for t in reversed(range(rewards.shape[0])):
        running = rewards[t] + gamma * running
        returns[t] = running
    adv = returns - values
    return (adv - adv.mean()) / (adv.std() + 1e-8), returns


def ppo_update(policy, optimizer, batch, cfg):
    amp_dtype = getattr(torch, cfg.precision)
    for _ in range(cfg.update_epochs):
        with torch.autocast("cpu", dtype=amp_dtype, enabled=cfg.precision != "float32"):
            logits, values = policy(batch["obs"])
        logits, values = logits.float(), values.float()
        new_logp = torch.distributions.Categorical(logits=logits).log_prob(batch["actions"])
        ratio = (new_logp - batch["logp"]).exp()
        pg_loss = torch.max(-batch["adv"] * ratio, -batch["adv"] * ratio.clamp(1 - cfg.clip_coef, 1 + cfg.clip_coef)).mean()
        v_loss = F.mse_loss(values, batch["returns"])
        loss = pg_loss + cfg.vf_coef * v_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = TrainConfig()
    policy = Policy()
    optimizer = torch.optim.AdamW(policy.parameters(), lr=cfg.lr)
    T, N = 8, 16
    obs = torch.randn(T * N, 16)
    with torch.no_grad():
        logits, values = policy(obs)
        dist = torch.distributions.Categorical(logits=logits)
        actions = dist.sample()
        logp = dist.log_prob(actions)
    rewards = torch.randn(T, N)
    adv, returns = compute_advantages(rewards, values.view(T, N))
    batch = {"obs": obs, "actions": actions, "logp": logp, "adv": adv.reshape(-1), "returns": returns.reshape(-1)}
    loss = ppo_update(policy, optimizer, batch, cfg)
    print("loss", round(loss, 4), "param dtype", next(policy.parameters()).dtype)
