"""DDIM/DDPM training runner (ermongroup/ddim: runners/diffusion.py Diffusion.train builds Model(config), wraps it in DataParallel, takes get_optimizer(self.config, model.parameters()) from functions/__init__.py (Adam with eps=config.optim.eps, 1e-8 in configs/cifar10.yml) and steps it on noise_estimation_loss) with a precision key added to the model config and a build_model factory that casts the UNet to float16 for it: Adam then runs over float16 weights with eps 1e-8, which rounds to 0 in float16
source: https://github.com/ermongroup/ddim/blob/e8df66cf02e457719930748b5c26e37e3126dfdd/functions/__init__.py
reported-error: (none filed; the runner trains float32 weights; the variant's model.precision 'fp16' casts them, and the first Adam steps write inf/NaN into the UNet)
outcome: ok (silent: the optimizer.step() at line 240 writes inf/NaN into the float16 UNet weights from the first step on; printed as "after training: N non-finite float16 weights" with N > 0 and a nan loss; no exception)
root-cause: line 131
expect: DG012
"""
import argparse
import logging
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
import torch.utils.data as data


# ---- configs/cifar10.yml (at toy size), read into the nested namespace main.py's dict2namespace builds
def dict2namespace(config):
    namespace = argparse.Namespace()
    for key, value in config.items():
        setattr(namespace, key, dict2namespace(value) if isinstance(value, dict) else value)
    return namespace


CONFIG_YML = {
    "data": {"dataset": "CIFAR10", "image_size": 16, "channels": 3, "rescaled": True, "num_workers": 0},
    "model": {"type": "simple", "in_channels": 3, "out_ch": 3, "ch": 16, "dropout": 0.1,
              "var_type": "fixedlarge", "ema_rate": 0.9999, "ema": True, "precision": "fp16"},
    "diffusion": {"beta_schedule": "linear", "beta_start": 0.0001, "beta_end": 0.02, "num_diffusion_timesteps": 1000},
    "training": {"batch_size": 8, "n_epochs": 2, "snapshot_freq": 5000},
    "optim": {"weight_decay": 0.000, "optimizer": "Adam", "lr": 0.0002, "beta1": 0.9, "amsgrad": False,
              "eps": 0.00000001, "grad_clip": 1.0},
}


# ---- datasets/__init__.py (CIFAR10 replaced by random 16x16 images)
def get_dataset(args, config, n=16):
    g = torch.Generator().manual_seed(0)
    x = torch.rand(n, config.data.channels, config.data.image_size, config.data.image_size, generator=g)
    return data.TensorDataset(x, torch.zeros(n, dtype=torch.long)), None


def data_transform(config, X):
    if config.data.rescaled:
        X = 2 * X - 1.0
    return X


# ---- models/diffusion.py (the DDPM UNet at toy size: timestep embedding, two ResnetBlocks, GroupNorm)
def get_timestep_embedding(timesteps, embedding_dim):
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = torch.exp(torch.arange(half_dim, dtype=torch.float32) * -emb)
    emb = emb.to(device=timesteps.device)
    emb = timesteps.float()[:, None] * emb[None, :]
    return torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)


def Normalize(in_channels):
    return torch.nn.GroupNorm(num_groups=8, num_channels=in_channels, eps=1e-6, affine=True)


class ResnetBlock(nn.Module):
    def __init__(self, in_channels, out_channels, temb_channels, dropout):
        super().__init__()
        self.norm1 = Normalize(in_channels)
        self.conv1 = torch.nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=1, padding=1)
        self.temb_proj = torch.nn.Linear(temb_channels, out_channels)
        self.norm2 = Normalize(out_channels)
        self.dropout = torch.nn.Dropout(dropout)
        self.conv2 = torch.nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=1, padding=1)

    def forward(self, x, temb):
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.temb_proj(F.silu(temb))[:, :, None, None]
        h = self.conv2(self.dropout(F.silu(self.norm2(h))))
        return x + h


class Model(nn.Module):
    def __init__(self, config):
        super().__init__()
        ch, in_channels = config.model.ch, config.model.in_channels
        self.ch = ch
        self.temb_ch = ch * 4
        self.temb = nn.Module()
        self.temb.dense = nn.ModuleList([torch.nn.Linear(ch, self.temb_ch), torch.nn.Linear(self.temb_ch, self.temb_ch)])
        self.conv_in = torch.nn.Conv2d(in_channels, ch, kernel_size=3, stride=1, padding=1)
        self.blocks = nn.ModuleList([ResnetBlock(ch, ch, self.temb_ch, config.model.dropout) for _ in range(2)])
        self.norm_out = Normalize(ch)
        self.conv_out = torch.nn.Conv2d(ch, config.model.out_ch, kernel_size=3, stride=1, padding=1)

    def forward(self, x, t):
        dtype = self.conv_in.weight.dtype
        temb = get_timestep_embedding(t, self.ch).to(dtype)
        temb = self.temb.dense[1](F.silu(self.temb.dense[0](temb)))
        h = self.conv_in(x.to(dtype))
        for block in self.blocks:
            h = block(h, temb)
        return self.conv_out(F.silu(self.norm_out(h))).float()


# ---- models/ema.py
class EMAHelper(object):
    def __init__(self, mu=0.999):
        self.mu = mu
        self.shadow = {}

    def register(self, module):
        if isinstance(module, nn.DataParallel):
            module = module.module
        for name, param in module.named_parameters():
            if param.requires_grad:
                self.shadow[name] = param.data.clone()

    def update(self, module):
        if isinstance(module, nn.DataParallel):
            module = module.module
        for name, param in module.named_parameters():
            if param.requires_grad:
                self.shadow[name].data = (1. - self.mu) * param.data + self.mu * self.shadow[name].data


# ---- functions/__init__.py
def get_optimizer(config, parameters):
    if config.optim.optimizer == 'Adam':
        return optim.Adam(parameters, lr=config.optim.lr, weight_decay=config.optim.weight_decay,  # root-cause
                          betas=(config.optim.beta1, 0.999), amsgrad=config.optim.amsgrad,
                          eps=config.optim.eps)
    elif config.optim.optimizer == 'RMSProp':
        return optim.RMSprop(parameters, lr=config.optim.lr, weight_decay=config.optim.weight_decay)
    elif config.optim.optimizer == 'SGD':
        return optim.SGD(parameters, lr=config.optim.lr, momentum=0.9)
    else:
        raise NotImplementedError('Optimizer {} not understood.'.format(config.optim.optimizer))


# ---- functions/losses.py
def noise_estimation_loss(model, x0: torch.Tensor, t: torch.LongTensor, e: torch.Tensor, b: torch.Tensor, keepdim=False):
    a = (1-b).cumprod(dim=0).index_select(0, t).view(-1, 1, 1, 1)
    x = x0 * a.sqrt() + e * (1.0 - a).sqrt()
    output = model(x, t.float())
    if keepdim:
        return (e - output).square().sum(dim=(1, 2, 3))
    else:
        return (e - output).square().sum(dim=(1, 2, 3)).mean(dim=0)


loss_registry = {
    'simple': noise_estimation_loss,
}


# ---- runners/diffusion.py
def get_beta_schedule(beta_schedule, *, beta_start, beta_end, num_diffusion_timesteps):
    if beta_schedule == "quad":
        betas = np.linspace(beta_start ** 0.5, beta_end ** 0.5, num_diffusion_timesteps, dtype=np.float64) ** 2
    elif beta_schedule == "linear":
        betas = np.linspace(beta_start, beta_end, num_diffusion_timesteps, dtype=np.float64)
    else:
        raise NotImplementedError(beta_schedule)
    assert betas.shape == (num_diffusion_timesteps,)
    return betas


DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def build_model(config, device):
    model = Model(config)
    model = model.to(device, dtype=DTYPES[config.model.precision])
    return torch.nn.DataParallel(model)


class Diffusion(object):
    def __init__(self, args, config, device=None):
        self.args = args
        self.config = config
        if device is None:
            device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        self.device = device

        self.model_var_type = config.model.var_type
        betas = get_beta_schedule(
            beta_schedule=config.diffusion.beta_schedule,
            beta_start=config.diffusion.beta_start,
            beta_end=config.diffusion.beta_end,
            num_diffusion_timesteps=config.diffusion.num_diffusion_timesteps,
        )
        betas = self.betas = torch.from_numpy(betas).float().to(self.device)
        self.num_timesteps = betas.shape[0]

    def train(self):
        args, config = self.args, self.config
        dataset, test_dataset = get_dataset(args, config)
        train_loader = data.DataLoader(dataset, batch_size=config.training.batch_size, shuffle=True,
                                       num_workers=config.data.num_workers)
        model = build_model(config, self.device)
        optimizer = get_optimizer(self.config, model.parameters())

        if self.config.model.ema:
            ema_helper = EMAHelper(mu=self.config.model.ema_rate)
            ema_helper.register(model)
        else:
            ema_helper = None

        start_epoch, step = 0, 0
        for epoch in range(start_epoch, self.config.training.n_epochs):
            data_start = time.time()
            data_time = 0
            for i, (x, y) in enumerate(train_loader):
                n = x.size(0)
                data_time += time.time() - data_start
                model.train()
                step += 1

                x = x.to(self.device)
                x = data_transform(self.config, x)
                e = torch.randn_like(x)
                b = self.betas

                # antithetic sampling
                t = torch.randint(low=0, high=self.num_timesteps, size=(n // 2 + 1,)).to(self.device)
                t = torch.cat([t, self.num_timesteps - t - 1], dim=0)[:n]
                loss = loss_registry[config.model.type](model, x, t, e, b)

                logging.info(f"step: {step}, loss: {loss.item()}, data time: {data_time / (i+1)}")

                optimizer.zero_grad()
                loss.backward()

                try:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), config.optim.grad_clip)
                except Exception:
                    pass
                optimizer.step()  # fails-here

                if self.config.model.ema:
                    ema_helper.update(model)
                data_start = time.time()
            print(f"epoch {epoch}: step {step}, loss {loss.item():.4f}")
        return model



if __name__ == "__main__":
    torch.manual_seed(0)
    config = dict2namespace(CONFIG_YML)
    runner = Diffusion(argparse.Namespace(), config)
    model = runner.train()
    bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters() if p.dtype == torch.float16)
    print(f"after training: {bad} non-finite float16 weights")
