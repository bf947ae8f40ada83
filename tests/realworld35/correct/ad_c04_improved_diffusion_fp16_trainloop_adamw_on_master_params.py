"""Diffusion-model training in fp16 as improved-diffusion's TrainLoop does it (openai/improved-diffusion train_util.py + fp16_util.py): the UNet convs are converted to float16 after make_master_params copied every parameter into one flat float32 master Parameter, AdamW is built over that master copy, the fp16 grads are copied in, unscaled and stepped in float32, and the result is copied back into the float16 weights
source: https://github.com/openai/improved-diffusion/blob/6051920c0865d53146db7841bfba43c3e67edef6/improved_diffusion/train_util.py
reported-error: (none filed; upstream keeps float32 master params for AdamW)
outcome: ok
root-cause: -
expect: none
"""
import math

import numpy as np
import torch as th
import torch.nn as nn
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors
from torch.optim import AdamW

INITIAL_LOG_LOSS_SCALE = 20.0


# ---- improved_diffusion/fp16_util.py
def convert_module_to_f16(l):
    if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Conv3d)):
        l.weight.data = l.weight.data.half()
        l.bias.data = l.bias.data.half()


def make_master_params(model_params):
    master_params = _flatten_dense_tensors([param.detach().float() for param in model_params])
    master_params = nn.Parameter(master_params)
    master_params.requires_grad = True
    return [master_params]


def model_grads_to_master_grads(model_params, master_params):
    master_params[0].grad = _flatten_dense_tensors([param.grad.data.detach().float() for param in model_params])


def master_params_to_model_params(model_params, master_params):
    model_params = list(model_params)
    for param, master_param in zip(model_params, _unflatten_dense_tensors(master_params[0].detach(), model_params)):
        param.detach().copy_(master_param)


def zero_grad(model_params):
    for param in model_params:
        if param.grad is not None:
            param.grad.detach_().zero_()


# ---- improved_diffusion/unet.py (a two-level stand-in with the same fp16 conventions)
class GroupNorm32(nn.GroupNorm):
    def forward(self, x):
        return super().forward(x.float()).type(x.dtype)


class ResBlock(nn.Module):
    def __init__(self, channels, emb_channels, out_channels):
        super().__init__()
        self.in_layers = nn.Sequential(GroupNorm32(8, channels), nn.SiLU(), nn.Conv2d(channels, out_channels, 3, padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_channels, out_channels))
        self.out_layers = nn.Sequential(GroupNorm32(8, out_channels), nn.SiLU(), nn.Conv2d(out_channels, out_channels, 3, padding=1))
        self.skip_connection = nn.Identity() if channels == out_channels else nn.Conv2d(channels, out_channels, 1)

    def forward(self, x, emb):
        h = self.in_layers(x)
        emb_out = self.emb_layers(emb).type(h.dtype)
        h = self.out_layers(h + emb_out[..., None, None])
        return self.skip_connection(x) + h


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = th.exp(-math.log(max_period) * th.arange(start=0, end=half, dtype=th.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return th.cat([th.cos(args), th.sin(args)], dim=-1)


class UNetModel(nn.Module):
    def __init__(self, in_channels=3, model_channels=32):
        super().__init__()
        self.model_channels = model_channels
        self.dtype_fp16 = False
        emb = model_channels * 4
        self.time_embed = nn.Sequential(nn.Linear(model_channels, emb), nn.SiLU(), nn.Linear(emb, emb))
        self.input_blocks = nn.ModuleList([nn.Conv2d(in_channels, model_channels, 3, padding=1), ResBlock(model_channels, emb, model_channels)])
        self.middle_block = ResBlock(model_channels, emb, model_channels)
        self.output_blocks = nn.ModuleList([ResBlock(2 * model_channels, emb, model_channels)])
        self.out = nn.Sequential(GroupNorm32(8, model_channels), nn.SiLU(), nn.Conv2d(model_channels, in_channels, 3, padding=1))

    def convert_to_fp16(self):
        self.input_blocks.apply(convert_module_to_f16)
        self.middle_block.apply(convert_module_to_f16)
        self.output_blocks.apply(convert_module_to_f16)
        self.dtype_fp16 = True

    @property
    def inner_dtype(self):
        return th.float16 if self.dtype_fp16 else th.float32

    def forward(self, x, timesteps):
        emb = self.time_embed(timestep_embedding(timesteps, self.model_channels))
        h = x.type(self.inner_dtype)
        h = self.input_blocks[0](h)
        hs = [self.input_blocks[1](h, emb)]
        h = self.middle_block(hs[-1], emb)
        h = self.output_blocks[0](th.cat([h, hs.pop()], dim=1), emb)
        return self.out(h.type(x.dtype))


# ---- improved_diffusion/gaussian_diffusion.py + resample.py (epsilon-prediction MSE, uniform timesteps)
class GaussianDiffusion:
    def __init__(self, num_timesteps=100):
        self.num_timesteps = num_timesteps
        betas = np.linspace(1e-4, 0.02, num_timesteps)
        self.alphas_cumprod = th.tensor(np.cumprod(1.0 - betas), dtype=th.float32)

    def training_losses(self, model, x_start, t, model_kwargs=None):
        noise = th.randn_like(x_start)
        a = self.alphas_cumprod[t][:, None, None, None]
        x_t = a.sqrt() * x_start + (1 - a).sqrt() * noise
        mse = ((noise - model(x_t, t, **(model_kwargs or {}))) ** 2).mean(dim=(1, 2, 3))
        return {"loss": mse, "mse": mse}


class UniformSampler:
    def __init__(self, diffusion):
        self.diffusion = diffusion

    def sample(self, batch_size, device):
        return th.randint(0, self.diffusion.num_timesteps, (batch_size,), device=device), th.ones(batch_size, device=device)


# ---- improved_diffusion/train_util.py
class TrainLoop:
    def __init__(self, *, model, diffusion, data, batch_size, lr, use_fp16=False, weight_decay=0.0, lr_anneal_steps=0):
        self.model, self.diffusion, self.data, self.batch_size, self.lr = model, diffusion, data, batch_size, lr
        self.use_fp16 = use_fp16
        self.fp16_scale_growth = 1e-3
        self.schedule_sampler = UniformSampler(diffusion)
        self.weight_decay = weight_decay
        self.lr_anneal_steps = lr_anneal_steps
        self.step = 0
        self.model_params = list(self.model.parameters())
        self.master_params = self.model_params
        self.lg_loss_scale = INITIAL_LOG_LOSS_SCALE
        if self.use_fp16:
            self._setup_fp16()
        self.opt = AdamW(self.master_params, lr=self.lr, weight_decay=self.weight_decay)

    def _setup_fp16(self):
        self.master_params = make_master_params(self.model_params)
        self.model.convert_to_fp16()

    def run_loop(self):
        while not self.lr_anneal_steps or self.step < self.lr_anneal_steps:
            batch, cond = next(self.data)
            self.run_step(batch, cond)
            self.step += 1

    def run_step(self, batch, cond):
        self.forward_backward(batch, cond)
        if self.use_fp16:
            self.optimize_fp16()
        else:
            self.opt.step()

    def forward_backward(self, batch, cond):
        zero_grad(self.model_params)
        t, weights = self.schedule_sampler.sample(batch.shape[0], batch.device)
        losses = self.diffusion.training_losses(self.model, batch, t, model_kwargs=cond)
        self.loss = (losses["loss"] * weights).mean()
        if self.use_fp16:
            loss_scale = 2 ** self.lg_loss_scale
            (self.loss * loss_scale).backward()
        else:
            self.loss.backward()

    def optimize_fp16(self):
        if any(not th.isfinite(p.grad).all() for p in self.model_params):
            self.lg_loss_scale -= 1
            print(f"Found NaN, decreased lg_loss_scale to {self.lg_loss_scale}")
            return
        model_grads_to_master_grads(self.model_params, self.master_params)
        self.master_params[0].grad.mul_(1.0 / (2 ** self.lg_loss_scale))
        self.opt.step()
        master_params_to_model_params(self.model_params, self.master_params)
        self.lg_loss_scale += self.fp16_scale_growth


def load_data(batch_size, image_size=16):
    while True:
        yield th.rand(batch_size, 3, image_size, image_size) * 2 - 1, {}


if __name__ == "__main__":
    th.manual_seed(0)
    model = UNetModel()
    diffusion = GaussianDiffusion()
    loop = TrainLoop(model=model, diffusion=diffusion, data=load_data(8), batch_size=8, lr=1e-4,
                     use_fp16=True, lr_anneal_steps=20)
    loop.run_loop()
    bad = sum(int((~th.isfinite(p)).sum()) for p in model.parameters() if p.dtype == th.float16)
    print(f"after training: {bad} non-finite fp16 weights, last loss {loop.loss.item():.4f}")
