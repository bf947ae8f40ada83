"""Adapter fine-tuning with a float16 frozen base: the base is cast to float16 first and the adapter is attached afterwards in float32, computing on h.float() and casting its output back to the base dtype, so GradScaler only ever unscales float32 adapter gradients
source: https://github.com/ArcticHare105/S3Diff/issues/19
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Adapter(nn.Module):
    def __init__(self, dim, rank=4):
        super().__init__()
        self.down = nn.Conv2d(dim, rank, 1, bias=False)
        self.up = nn.Conv2d(rank, dim, 1, bias=False)

    def forward(self, h):
        return self.up(self.down(h.float()))


class TinyUNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.inp = nn.Conv2d(3, dim, 3, padding=1)
        self.mid = nn.Conv2d(dim, dim, 3, padding=1)
        self.out = nn.Conv2d(dim, 3, 3, padding=1)
        self.adapter = None

    def forward(self, x):
        h = F.silu(self.inp(x))
        m = self.mid(h)
        if self.adapter is not None:
            m = m + self.adapter(h).to(m.dtype)
        return self.out(F.silu(m))


if __name__ == "__main__":
    device_type = "cuda" if torch.cuda.is_available() else "cpu"
    unet = TinyUNet().to(dtype=torch.float16).requires_grad_(False)
    unet.adapter = Adapter(16)
    unet.to(device_type)
    params = list(unet.adapter.parameters())
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    scaler = torch.amp.GradScaler(device_type)
    for step in range(2):
        img = torch.rand(2, 3, 16, 16, device=device_type, dtype=torch.float16)
        noise = torch.randn_like(img)
        loss = F.mse_loss(unet(img + noise).float(), noise.float())
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}, adapter grad dtype {params[0].dtype}")
