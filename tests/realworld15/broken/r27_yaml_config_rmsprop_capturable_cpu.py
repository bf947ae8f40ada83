"""Reinforcement-learning value network whose optimizer comes from a YAML-like config ({"name": "RMSprop", "capturable": True} copied from a CUDA-graph setup) and is built with getattr(torch.optim, name)(params, **kwargs); on a CPU run the first step asserts
source: https://github.com/pytorch/pytorch/issues/137387
reported-error: error when capturable=True is set for RMSprop on CPU (only valid for CUDA graph capture)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 32
root-cause: line 13
expect: DG016
"""
import torch
import torch.nn as nn

CONFIG = {
    "env": {"obs_dim": 8, "n_actions": 4},
    "optimizer": {"name": "RMSprop", "lr": 7e-4, "alpha": 0.99, "eps": 1e-5, "capturable": True},  # root-cause
    "train": {"updates": 3, "batch": 32, "gamma": 0.99},
}


def build_optimizer(params, spec):
    spec = dict(spec)
    name = spec.pop("name")
    return getattr(torch.optim, name)(params, **spec)


def td_update(net, optimizer, batch, gamma):
    obs, actions, rewards, next_obs = batch
    q = net(obs).gather(1, actions.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        target = rewards + gamma * net(next_obs).max(1).values
    loss = nn.functional.smooth_l1_loss(q, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    return loss.item()


env, train = CONFIG["env"], CONFIG["train"]
net = nn.Sequential(nn.Linear(env["obs_dim"], 64), nn.ReLU(), nn.Linear(64, env["n_actions"]))
optimizer = build_optimizer(net.parameters(), CONFIG["optimizer"])
for update in range(train["updates"]):
    batch = (torch.randn(train["batch"], env["obs_dim"]), torch.randint(0, env["n_actions"], (train["batch"],)),
             torch.randn(train["batch"]), torch.randn(train["batch"], env["obs_dim"]))
    print("update", update, "loss", td_update(net, optimizer, batch, train["gamma"]))
