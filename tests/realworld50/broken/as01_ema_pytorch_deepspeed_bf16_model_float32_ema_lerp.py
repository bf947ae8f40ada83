"""Denoising-diffusion training on 2-D points with an ema-pytorch EMA shadow and a DeepSpeed-style bf16 engine (lucidrains/ema-pytorch #36): the EMA wrapper deep-copies the denoiser while it is still float32, then the bf16 engine casts the online model to bfloat16 (fp32 master weights in the optimizer); after update_after_step the EMA's inplace_lerp calls tgt.lerp_(src, weight) with a float32 EMA tensor and a bfloat16 online tensor, because coerce_dtype was left False
source: https://github.com/lucidrains/ema-pytorch/issues/36
reported-error: "When training with DeepSpeed with BF16 enabled ... ema_pytorch.py, line 42, in inplace_lerp: tgt.lerp_(src, weight) RuntimeError: expected dtype float for `end` but got dtype c10::BFloat16"; the reporter's fix: EMA(..., coerce_dtype=True)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::BFloat16 at line 37
root-cause: line 159
expect: DG004
"""
import math
import os
import tempfile
from copy import deepcopy
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
out_dir = tempfile.mkdtemp()


# ---- ema_pytorch.EMA (0.7.7), the parts the training loop uses
def maybe_coerce_dtype(t, dtype):
    return t if t.dtype == dtype else t.to(dtype)


def inplace_copy(tgt, src, *, coerce_dtype=False):
    if coerce_dtype:
        src = maybe_coerce_dtype(src, tgt.dtype)
    tgt.copy_(src)


def inplace_lerp(tgt, src, weight, *, coerce_dtype=False):
    if coerce_dtype:
        src = maybe_coerce_dtype(src, tgt.dtype)
    tgt.lerp_(src, weight)  # fails-here


class EMA(nn.Module):
    def __init__(self, model, beta=0.9999, update_after_step=100, update_every=10, inv_gamma=1.0, power=2 / 3,
                 min_value=0.0, coerce_dtype=False):
        super().__init__()
        self.beta = beta
        self.online_model = [model]
        self.ema_model = deepcopy(model)
        for p in self.ema_model.parameters():
            p.detach_()
        self.parameter_names = {n for n, p in self.ema_model.named_parameters() if torch.is_floating_point(p)}
        self.inplace_copy = partial(inplace_copy, coerce_dtype=coerce_dtype)
        self.inplace_lerp = partial(inplace_lerp, coerce_dtype=coerce_dtype)
        self.update_every, self.update_after_step = update_every, update_after_step
        self.inv_gamma, self.power, self.min_value = inv_gamma, power, min_value
        self.register_buffer('initted', torch.tensor(False))
        self.register_buffer('step', torch.tensor(0))

    @property
    def model(self):
        return self.online_model[0]

    def get_params_iter(self, model):
        for name, param in model.named_parameters():
            if name in self.parameter_names:
                yield name, param

    def copy_params_from_model_to_ema(self):
        for (_, ma), (_, cur) in zip(self.get_params_iter(self.ema_model), self.get_params_iter(self.model)):
            self.inplace_copy(ma.data, cur.data)

    def get_current_decay(self):
        epoch = (self.step - self.update_after_step - 1).clamp(min=0.)
        value = 1 - (1 + epoch / self.inv_gamma) ** -self.power
        if epoch.item() <= 0:
            return 0.
        return value.clamp(min=self.min_value, max=self.beta).item()

    def update(self):
        step = self.step.item()
        self.step += 1
        if not self.initted.item():
            self.copy_params_from_model_to_ema()
            self.initted.data.copy_(torch.tensor(True))
            return
        should_update = step % self.update_every == 0
        if should_update and step <= self.update_after_step:
            self.copy_params_from_model_to_ema()
            return
        if should_update:
            self.update_moving_average(self.ema_model, self.model)

    @torch.no_grad()
    def update_moving_average(self, ma_model, current_model):
        current_decay = self.get_current_decay()
        for (_, cur), (_, ma) in zip(self.get_params_iter(current_model), self.get_params_iter(ma_model)):
            self.inplace_lerp(ma.data, cur.data, 1. - current_decay)

    def __call__(self, *args, **kwargs):
        return self.ema_model(*args, **kwargs)


# ---- the "bf16": {"enabled": true} engine of DeepSpeed, reduced: bf16 module, fp32 master weights
class BF16Optimizer:
    def __init__(self, module, lr):
        self.bf16_params = [p for p in module.parameters() if p.requires_grad]
        self.fp32_params = [p.detach().float().clone().requires_grad_(True) for p in self.bf16_params]
        self.optimizer = torch.optim.AdamW(self.fp32_params, lr=lr, weight_decay=0.0)

    def step(self):
        for p32, p16 in zip(self.fp32_params, self.bf16_params):
            p32.grad = p16.grad.float()
        self.optimizer.step()
        with torch.no_grad():
            for p32, p16 in zip(self.fp32_params, self.bf16_params):
                p16.copy_(p32)

    def zero_grad(self):
        for p in self.bf16_params:
            p.grad = None


def deepspeed_initialize(model, config):
    if config["bf16"]["enabled"]:
        model = model.to(torch.bfloat16)
    return model, BF16Optimizer(model, config["optimizer"]["params"]["lr"])


# ---- denoiser and noise schedule
class Denoiser(nn.Module):
    def __init__(self, dim=2, hidden=128, time_dim=32):
        super().__init__()
        self.time_dim = time_dim
        self.net = nn.Sequential(nn.Linear(dim + time_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, dim))

    def time_embedding(self, t):
        half = self.time_dim // 2
        freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
        args = t[:, None].float() * freqs[None]
        return torch.cat([args.sin(), args.cos()], dim=-1)

    def forward(self, x, t):
        emb = self.time_embedding(t).to(x.dtype)
        return self.net(torch.cat([x, emb], dim=-1))


timesteps = 100
betas = torch.linspace(1e-4, 0.02, timesteps)
alphas_cumprod = torch.cumprod(1 - betas, dim=0)

# synthetic two-moons points
n = 2048
theta = torch.rand(n) * math.pi
moon = torch.randint(0, 2, (n,))
points = torch.stack([torch.cos(theta) + moon, torch.sin(theta) * (1 - 2 * moon) - 0.5 * moon], dim=1)
loader = DataLoader(TensorDataset(points), batch_size=128, shuffle=True, drop_last=True)

ds_config = {"bf16": {"enabled": True}, "optimizer": {"type": "AdamW", "params": {"lr": 2e-3}}}
model = Denoiser()
ema = EMA(model, beta=0.995, update_after_step=20, update_every=5)  # root-cause
model, optimizer = deepspeed_initialize(model, ds_config)  # root-cause-alt

step = 0
for epoch in range(4):
    for (x0,) in loader:
        t = torch.randint(0, timesteps, (x0.shape[0],))
        noise = torch.randn_like(x0)
        a = alphas_cumprod[t].sqrt()[:, None]
        s = (1 - alphas_cumprod[t]).sqrt()[:, None]
        xt = (a * x0 + s * noise).to(torch.bfloat16)
        pred = model(xt, t)
        loss = F.mse_loss(pred.float(), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update()
        step += 1
    print(f"epoch {epoch} step {step} loss {loss.item():.4f}")

torch.save(ema.ema_model.state_dict(), os.path.join(out_dir, "ema_denoiser.pt"))
print("saved", os.path.join(out_dir, "ema_denoiser.pt"))
