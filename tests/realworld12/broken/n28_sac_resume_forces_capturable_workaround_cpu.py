"""Agent-training resume helper that applies the workaround from the PyTorch 1.12 "state_steps should not be CUDA tensors" thread: after optimizer.load_state_dict it sets param_groups[...]["capturable"] = True for every group; the resumed run happens on a CPU machine and the first Adam step asserts
source: https://github.com/pytorch/pytorch/issues/80809
reported-error: AssertionError: If capturable=False, state_steps should not be CUDA tensors. (workaround discussed: set capturable=True after loading the optimizer state)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 31
root-cause: line 55
expect: DG016
"""
import os
import tempfile

import torch
import torch.nn as nn


def make_agent():
    actor = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2), nn.Tanh())
    critic = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    return actor, critic


def make_optimizers(actor, critic):
    return torch.optim.Adam(actor.parameters(), lr=3e-4), torch.optim.Adam(critic.parameters(), lr=1e-3)


def update(actor, critic, actor_opt, critic_opt, batch):
    obs, act, ret = batch
    q = critic(torch.cat([obs, act], -1))
    critic_loss = nn.functional.mse_loss(q, ret)
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()  # fails-here
    actor_loss = -critic(torch.cat([obs, actor(obs)], -1)).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
    return critic_loss.item()


def fake_batch(n=32):
    return torch.randn(n, 6), torch.rand(n, 2) * 2 - 1, torch.randn(n, 1)


def save(path, actor, critic, actor_opt, critic_opt):
    torch.save({"actor": actor.state_dict(), "critic": critic.state_dict(),
                "actor_opt": actor_opt.state_dict(), "critic_opt": critic_opt.state_dict()}, path)


def resume(path, actor, critic, actor_opt, critic_opt):
    ckpt = torch.load(path, map_location="cpu")
    actor.load_state_dict(ckpt["actor"])
    critic.load_state_dict(ckpt["critic"])
    for opt, key in ((actor_opt, "actor_opt"), (critic_opt, "critic_opt")):
        opt.load_state_dict(ckpt[key])
        for group in opt.param_groups:
            group["capturable"] = True  # root-cause


if __name__ == "__main__":
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "policy.pth")
    actor, critic = make_agent()
    actor_opt, critic_opt = make_optimizers(actor, critic)
    for _ in range(3):
        update(actor, critic, actor_opt, critic_opt, fake_batch())
    save(path, actor, critic, actor_opt, critic_opt)
    actor, critic = make_agent()
    actor_opt, critic_opt = make_optimizers(actor, critic)
    resume(path, actor, critic, actor_opt, critic_opt)
    for epoch in range(2):
        print(f"epoch {epoch}: critic loss {update(actor, critic, actor_opt, critic_opt, fake_batch()):.4f}")
