"""Muon resume in bf16 that applies the bf16 precision to the rebuilt model before creating the optimizer and loading its state; Optimizer.load_state_dict casts the float32 momentum buffers to the (now bf16) parameter dtype, so lerp_ sees matching dtypes
source: https://github.com/deepspeedai/DeepSpeed/issues/7746
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import torch
import torch.nn as nn

CONFIG = {"bf16": {"enabled": True}, "optimizer": {"lr": 1e-3, "momentum": 0.95}, "hidden": 64}


# ---- deepspeed/runtime/zero/muon/original_muon.py
def zeropower_via_newtonschulz5(G, steps=3):
    X = G / (G.norm() + 1e-7)
    for _ in range(steps):
        A = X @ X.T
        X = 3.4445 * X - 4.7750 * A @ X + 2.0315 * A @ A @ X
    return X


class SingleDeviceMuon(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02, momentum=0.95):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if "momentum_buffer" not in state:
                    state["momentum_buffer"] = torch.zeros_like(p)
                buf = state["momentum_buffer"]
                buf.lerp_(p.grad, 1 - group["momentum"])
                update = zeropower_via_newtonschulz5(buf) if p.ndim == 2 else buf
                p.add_(update.to(p.dtype), alpha=-group["lr"])


def train_step(model, optimizer, x, y):
    loss = ((model(x) - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.float().item()


def build(cfg):
    return nn.Sequential(nn.Linear(cfg["hidden"], cfg["hidden"], bias=False), nn.ReLU(), nn.Linear(cfg["hidden"], 1, bias=False))


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = torch.randn(16, CONFIG["hidden"]), torch.randn(16, 1)
    model = build(CONFIG)
    opt = SingleDeviceMuon(model.parameters(), **CONFIG["optimizer"])
    train_step(model, opt, x, y)
    buffer = io.BytesIO()
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, buffer)

    buffer.seek(0)
    ckpt = torch.load(buffer)
    resumed = build(CONFIG)
    resumed.load_state_dict(ckpt["model"])
    if CONFIG["bf16"]["enabled"]:
        resumed = resumed.to(torch.bfloat16)
        x, y = x.bfloat16(), y.bfloat16()
    resumed_opt = SingleDeviceMuon(resumed.parameters(), **CONFIG["optimizer"])
    resumed_opt.load_state_dict(ckpt["optimizer"])
    print("resumed loss", train_step(resumed, resumed_opt, x, y))
