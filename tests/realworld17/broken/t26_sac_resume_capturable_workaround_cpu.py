"""SAC agent resumed from a saved policy/optimizer checkpoint: after the "If capturable=False, state_steps should not be CUDA tensors" error, resume() applies the forum workaround optim.param_groups[0]["capturable"] = True to every optimizer, and the next update on a CPU-only run fails inside Adam.step()
source: https://github.com/thu-ml/tianshou/issues/681
reported-error: AssertionError: If capturable=False, state_steps should not be CUDA tensors. (then the capturable=True workaround)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 32
root-cause: line 46
expect: DG016
"""
import io

import torch
import torch.nn as nn


class SACPolicy(nn.Module):
    def __init__(self, obs_dim=8, act_dim=2):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 2 * act_dim))
        self.critic = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=3e-4)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=3e-4)

    def act(self, obs):
        mu, log_std = self.actor(obs).chunk(2, -1)
        return torch.tanh(mu + log_std.clamp(-5, 2).exp() * torch.randn_like(mu))

    def learn(self, obs, rew):
        act = self.act(obs).detach()
        q = self.critic(torch.cat([obs, act], -1)).squeeze(-1)
        critic_loss = (q - rew).pow(2).mean()
        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()  # fails-here
        actor_loss = -self.critic(torch.cat([obs, self.act(obs)], -1)).mean()
        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()
        return critic_loss.item()


def resume(policy, buffer):
    ckpt = torch.load(buffer, map_location="cpu")
    policy.load_state_dict(ckpt["model"])
    policy.actor_optim.load_state_dict(ckpt["actor_optim"])
    policy.critic_optim.load_state_dict(ckpt["critic_optim"])
    for optim in (policy.actor_optim, policy.critic_optim):
        optim.param_groups[0]["capturable"] = True  # root-cause


obs, rew = torch.randn(64, 8), torch.randn(64)
old = SACPolicy()
old.learn(obs, rew)
buf = io.BytesIO()
torch.save({"model": old.state_dict(), "actor_optim": old.actor_optim.state_dict(),
            "critic_optim": old.critic_optim.state_dict()}, buf)
buf.seek(0)
policy = SACPolicy()
resume(policy, buf)
for epoch in range(2):
    print("epoch", epoch, "critic loss", policy.learn(obs, rew))
