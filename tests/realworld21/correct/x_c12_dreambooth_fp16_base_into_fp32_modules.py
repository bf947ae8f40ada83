"""DreamBooth-style fine-tuning that reads the fp16 base file but copies it into float32 modules with load_state_dict (which keeps the parameters' dtype), then trains under float16 autocast with GradScaler, so unscale_ sees float32 gradients
source: https://github.com/TheLastBen/fast-stable-diffusion/issues/1975
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- models
class TextEncoder(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def forward(self, ids):
        return self.mlp(self.tok(ids)).mean(1)


class Denoiser(nn.Module):
    def __init__(self, ch=4, dim=32):
        super().__init__()
        self.inp = nn.Conv2d(ch, dim, 3, padding=1)
        self.cond = nn.Linear(dim, dim)
        self.out = nn.Conv2d(dim, ch, 3, padding=1)

    def forward(self, x, emb):
        return self.out(F.silu(self.inp(x) + self.cond(emb)[:, :, None, None]))


# ---- model_loader.py
def export_fp16_base():
    buf = io.BytesIO()
    torch.save({"text_encoder": {k: v.half() for k, v in TextEncoder().state_dict().items()},
                "unet": {k: v.half() for k, v in Denoiser().state_dict().items()}}, buf)
    buf.seek(0)
    return buf


def load_module(module, state):
    module.load_state_dict(state)
    return module


# ---- train_dreambooth.py
def main(max_grad_norm=1.0, steps=3):
    torch.manual_seed(0)
    base = torch.load(export_fp16_base())
    text_encoder = load_module(TextEncoder(), base["text_encoder"])
    unet = load_module(Denoiser(), base["unet"])
    params = list(text_encoder.parameters()) + list(unet.parameters())
    optimizer = torch.optim.AdamW(params, lr=2e-6, eps=1e-4)
    scaler = torch.amp.GradScaler("cpu")
    for step in range(steps):
        latents = torch.randn(2, 4, 8, 8)
        ids = torch.randint(0, 64, (2, 7))
        noise = torch.randn_like(latents)
        with torch.autocast("cpu", dtype=torch.float16):
            pred = unet(latents + noise, text_encoder(ids))
            loss = F.mse_loss(pred.float(), noise)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(params, max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
