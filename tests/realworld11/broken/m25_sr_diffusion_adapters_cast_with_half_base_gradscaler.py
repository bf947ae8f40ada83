"""Super-resolution diffusion fine-tuning (S3Diff-style): the frozen UNet is cast to float16 for memory after its trainable adapter layers were attached, so the adapters become float16 too; the training loop uses a GradScaler and unscales before clipping, which refuses float16 gradients
source: https://github.com/ArcticHare105/S3Diff/issues/19
reported-error: ValueError: Attempting to unscale FP16 gradients. (in accelerator.clip_grad_norm_ -> scaler.unscale_ when training with "fp16")
outcome: ValueError: Attempting to unscale FP16 gradients. at line 64
root-cause: line 48
expect: DG014
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Adapter(nn.Module):
    def __init__(self, dim, rank=4):
        super().__init__()
        self.down = nn.Conv2d(dim, rank, 1, bias=False)
        self.up = nn.Conv2d(rank, dim, 1, bias=False)
        nn.init.zeros_(self.up.weight)

    def forward(self, x):
        return self.up(self.down(x))


class TinyUNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.inp = nn.Conv2d(3, dim, 3, padding=1)
        self.mid = nn.Conv2d(dim, dim, 3, padding=1)
        self.out = nn.Conv2d(dim, 3, 3, padding=1)
        self.adapters = nn.ModuleList()

    def attach_adapters(self):
        self.adapters.append(Adapter(self.mid.out_channels))

    def forward(self, x):
        h = F.silu(self.inp(x))
        m = self.mid(h)
        for ad in self.adapters:
            m = m + ad(h)
        return self.out(F.silu(m))


def prepare(weight_dtype):
    unet = TinyUNet()
    unet.attach_adapters()
    unet.requires_grad_(False)
    unet.adapters.requires_grad_(True)
    unet.to(dtype=weight_dtype)  # root-cause
    return unet


def main(mixed_precision="fp16", steps=2):
    device_type = "cuda" if torch.cuda.is_available() else "cpu"
    weight_dtype = torch.float16 if mixed_precision == "fp16" else torch.float32
    unet = prepare(weight_dtype).to(device_type)
    params = [p for p in unet.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-4)
    scaler = torch.amp.GradScaler(device_type)
    for step in range(steps):
        lr_img = torch.rand(2, 3, 16, 16, device=device_type, dtype=weight_dtype)
        noise = torch.randn_like(lr_img)
        loss = F.mse_loss(unet(lr_img + noise).float(), noise.float())
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
