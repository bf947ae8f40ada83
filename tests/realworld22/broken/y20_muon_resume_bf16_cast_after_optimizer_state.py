"""Resuming a Muon-optimised model in bf16 (DeepSpeed-style resume, plain torch): the resume path rebuilds the float32 model, creates the optimizer and loads its state (momentum buffers become float32, matching the parameters at that point), and only afterwards applies the configured bf16 precision with model.to(torch.bfloat16); the first step then lerps a float32 momentum buffer toward a bf16 gradient
source: https://github.com/deepspeedai/DeepSpeed/issues/7746
reported-error: RuntimeError when resuming Muon with bf16: momentum_buffer is loaded as fp32 while parameters and gradients are bf16; the mismatch happens when Muon applies momentum.lerp_(grad, 1 - beta) between fp32 momentum buffers and bf16 gradients
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::BFloat16 at line 39
root-cause: line 72
expect: DG015
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
                buf.lerp_(p.grad, 1 - group["momentum"])  # fails-here
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
    resumed_opt = SingleDeviceMuon(resumed.parameters(), **CONFIG["optimizer"])
    resumed_opt.load_state_dict(ckpt["optimizer"])
    if CONFIG["bf16"]["enabled"]:
        resumed = resumed.to(torch.bfloat16)  # root-cause
        x, y = x.bfloat16(), y.bfloat16()
    print("resumed loss", train_step(resumed, resumed_opt, x, y))
