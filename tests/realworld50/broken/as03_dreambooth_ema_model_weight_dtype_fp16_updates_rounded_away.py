"""DreamBooth-style fine-tuning of a (small) latent-diffusion UNet with mixed_precision "fp16" and use_ema, as d8ahazard/sd_dreambooth_extension's train_dreambooth.py did it (PR #1415): weight_dtype is float16, the frozen VAE and text encoder are cast to it, the trainable UNet stays float32 under autocast, and the EMA copy is created with EMAModel(unet, device=..., dtype=weight_dtype); EMAModel.step's ema_param.mul_(decay) and add_(param, alpha=1 - decay) on float16 tensors round (almost) every change to 0, so the EMA weights stay where they started
source: https://github.com/d8ahazard/sd_dreambooth_extension/pull/1415
reported-error: "Due to fp16/bf16 not having enough precision to represent differences to a weight on the order of 0.001 times the current value, almost all EMA weight updates get rounded down to 0. This means that the ema model never actually gets updated from the running weights. The solution is to always keep the EMA model in float32, regardless of weight_dtype." (no exception)
outcome: ok (silent: the EMA copy is float16 and after 40 steps only 1.1% of its entries have moved at all, max move 1.19e-05, where the float32 EMA of as_c03 moves 100.0% of them; the decayed update is rounded away in EMAModel.step's float16 add_ at line 55)
root-cause: line 113
expect: DG013
"""
import copy
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
out_dir = tempfile.mkdtemp()
device = torch.device("cpu")


# ---- helpers/ema_model.py's EMAModel, the parts the training loop uses
class EMAModel(object):
    def __init__(self, model, decay=0.9999, device=None, dtype=None):
        self.decay = decay
        self.model = copy.deepcopy(model)
        self.model.to(device, dtype=dtype)
        self.params = {}
        self.build_params()

    def build_params(self, state_dict=None):
        if state_dict is None:
            state_dict = self.model.state_dict()
        for param_key in state_dict:
            if param_key in self.params:
                self.params[param_key].copy_(state_dict[param_key])
            else:
                self.params[param_key] = state_dict[param_key]

    def load(self, state_dict, build_params=False):
        self.model.load_state_dict(state_dict, strict=False)
        if build_params:
            self.build_params(state_dict)

    @torch.no_grad()
    def step(self, new_model):
        decay = self.decay
        ema_state_dict = {}
        for key, param in new_model.state_dict().items():
            ema_param = self.params[key]
            if not torch.is_floating_point(ema_param):
                ema_param.copy_(param)
            else:
                ema_param.mul_(decay)
                ema_param.add_(param.to(dtype=ema_param.dtype), alpha=1 - decay)  # fails-here
            ema_state_dict[key] = ema_param
        self.load(ema_state_dict, build_params=False)


# ---- tiny stand-ins for the SD components
class TextEncoder(nn.Module):
    def __init__(self, vocab=1000, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids):
        return self.proj(self.emb(ids))


class VAEEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 4, 2, 1), nn.SiLU(), nn.Conv2d(16, 8, 4, 2, 1))

    def forward(self, x):
        mean, logvar = self.net(x).chunk(2, dim=1)
        return mean + torch.randn_like(mean) * (0.5 * logvar).exp()


class UNet(nn.Module):
    def __init__(self, ch=4, hidden=64, ctx_dim=64):
        super().__init__()
        self.inp = nn.Conv2d(ch, hidden, 3, padding=1)
        self.time = nn.Linear(1, hidden)
        self.ctx = nn.Linear(ctx_dim, hidden)
        self.mid = nn.Conv2d(hidden, hidden, 3, padding=1)
        self.out = nn.Conv2d(hidden, ch, 3, padding=1)

    def forward(self, x, t, ctx):
        h = F.silu(self.inp(x))
        h = h + self.time(t[:, None].float() / 1000)[:, :, None, None] + self.ctx(ctx.mean(1))[:, :, None, None]
        return self.out(F.silu(self.mid(h)))


mixed_precision = "fp16"
use_ema = True
weight_dtype = torch.float32
if mixed_precision == "fp16":
    weight_dtype = torch.float16
elif mixed_precision == "bf16":
    weight_dtype = torch.bfloat16

text_encoder, vae, unet = TextEncoder(), VAEEncoder(), UNet()
text_encoder.requires_grad_(False)
vae.requires_grad_(False)
text_encoder.to(device, dtype=weight_dtype)
vae.to(device, dtype=weight_dtype)
unet.to(device)

ema_model = None
if use_ema:
    ema_model = EMAModel(unet, device=device, dtype=weight_dtype)  # root-cause
initial_ema = {k: v.detach().float().clone() for k, v in ema_model.model.state_dict().items()}

optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-4)
scaler = torch.amp.GradScaler(device.type)
num_train_timesteps = 1000
betas = torch.linspace(0.00085, 0.012, num_train_timesteps)
alphas_cumprod = torch.cumprod(1 - betas, 0)

# synthetic instance images and tokenized prompts ("a photo of sks dog")
images = torch.rand(32, 3, 32, 32) * 2 - 1
input_ids = torch.randint(0, 1000, (32, 8))
train_dataloader = DataLoader(TensorDataset(images, input_ids), batch_size=4, shuffle=True)

global_step = 0
for epoch in range(5):
    for pixel_values, ids in train_dataloader:
        with torch.no_grad():
            latents = vae(pixel_values.to(device, dtype=weight_dtype)) * 0.18215
            encoder_hidden_states = text_encoder(ids.to(device))
        noise = torch.randn_like(latents)
        timesteps = torch.randint(0, num_train_timesteps, (latents.shape[0],), device=device)
        a = alphas_cumprod[timesteps].sqrt().view(-1, 1, 1, 1).to(latents.dtype)
        s = (1 - alphas_cumprod[timesteps]).sqrt().view(-1, 1, 1, 1).to(latents.dtype)
        noisy_latents = a * latents + s * noise
        with torch.autocast(device.type, dtype=weight_dtype):
            model_pred = unet(noisy_latents, timesteps, encoder_hidden_states)
        loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(unet.parameters(), 1)
        scaler.step(optimizer)
        scaler.update()
        if use_ema and ema_model is not None:
            ema_model.step(unet)
        optimizer.zero_grad(set_to_none=True)
        global_step += 1
    print(f"epoch {epoch} step {global_step} loss {loss.item():.4f}")

# how far the EMA weights moved from the weights they started from
changed = total = 0
max_move = 0.0
for k, v in ema_model.model.state_dict().items():
    d = (v.float() - initial_ema[k]).abs()
    changed += int((d > 0).sum())
    total += d.numel()
    max_move = max(max_move, float(d.max()))
print(f"EMA dtype {next(ema_model.model.parameters()).dtype}: {100.0 * changed / total:.1f}% of EMA entries changed "
      f"after {global_step} steps, max move {max_move:.2e}")
torch.save(ema_model.model.state_dict(), os.path.join(out_dir, "ema_unet.pt"))
