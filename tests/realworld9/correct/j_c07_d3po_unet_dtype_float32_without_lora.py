"""D3PO-style fine-tuning after the suggested fix: the frozen vae and text encoder use the fp16 inference_dtype, but unet_dtype = inference_dtype if config.use_lora else torch.float32, so the trainable unet stays float32 under fp16 autocast and GradScaler
source: https://github.com/yk7333/d3po/issues/6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class Config:
    mixed_precision = "fp16"
    use_lora = False
    lr = 3e-4
    max_grad_norm = 1.0


class TinyUNet(nn.Module):
    def __init__(self, ch=4, d=16):
        super().__init__()
        self.down = nn.Conv2d(ch, d, 3, padding=1)
        self.up = nn.Conv2d(d, ch, 3, padding=1)

    def forward(self, latents, t):
        return self.up(torch.relu(self.down(latents)) + t.view(-1, 1, 1, 1))


config = Config()
inference_dtype = torch.float16 if config.mixed_precision == "fp16" else torch.float32
vae = nn.Conv2d(3, 4, 8, stride=8).to(dtype=inference_dtype).requires_grad_(False)
unet_dtype = inference_dtype if config.use_lora else torch.float32
unet = TinyUNet().to("cpu", dtype=unet_dtype)
optimizer = torch.optim.AdamW(unet.parameters(), lr=config.lr)
scaler = torch.amp.GradScaler("cpu", enabled=config.mixed_precision == "fp16")
for step in range(2):
    latents = torch.randn(2, 4, 8, 8)
    t = torch.rand(2)
    with torch.autocast("cpu", dtype=torch.float16):
        loss = (unet(latents, t).float() ** 2).mean()
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(unet.parameters(), config.max_grad_norm)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    print(step, loss.item())
