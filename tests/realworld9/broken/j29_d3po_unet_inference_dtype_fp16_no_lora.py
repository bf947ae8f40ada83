"""D3PO-style reward fine-tuning with mixed_precision fp16 and use_lora disabled: the pipeline moves vae, text encoder and the unet with dtype=inference_dtype (float16), so the trainable unet parameters are float16 and the GradScaler's unscale_ before clipping refuses them
source: https://github.com/yk7333/d3po/issues/6
reported-error: ValueError: Attemting to unscale FP16 gradients (fine-tuning the u-net with LoRA disabled and fp16 AMP; fixed with unet_dtype = inference_dtype if config.use_lora else torch.float32)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 62
root-cause: line 46
expect: DG014
"""
import torch
import torch.nn as nn


class Config:
    mixed_precision = "fp16"
    use_lora = False
    lr = 3e-4
    max_grad_norm = 1.0
    steps = 2


class TinyUNet(nn.Module):
    def __init__(self, ch=4, d=16):
        super().__init__()
        self.down = nn.Conv2d(ch, d, 3, padding=1)
        self.mid = nn.Conv2d(d, d, 3, padding=1)
        self.up = nn.Conv2d(d, ch, 3, padding=1)

    def forward(self, latents, t):
        h = torch.relu(self.down(latents)) + t.view(-1, 1, 1, 1)
        return self.up(torch.relu(self.mid(h)))


class Pipeline:
    def __init__(self):
        self.vae = nn.Conv2d(3, 4, 8, stride=8)
        self.text_encoder = nn.Embedding(100, 16)
        self.unet = TinyUNet()


def setup(config, device="cpu"):
    pipeline = Pipeline()
    inference_dtype = torch.float16 if config.mixed_precision == "fp16" else torch.float32
    pipeline.vae.to(device, dtype=inference_dtype)
    pipeline.text_encoder.to(device, dtype=inference_dtype)
    pipeline.vae.requires_grad_(False)
    pipeline.text_encoder.requires_grad_(False)
    pipeline.unet.to(device, dtype=inference_dtype)  # root-cause
    return pipeline, inference_dtype


def train(config):
    pipeline, inference_dtype = setup(config)
    params = [p for p in pipeline.unet.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=config.lr)
    scaler = torch.amp.GradScaler("cpu", enabled=config.mixed_precision == "fp16")
    for step in range(config.steps):
        latents = torch.randn(2, 4, 8, 8, dtype=inference_dtype)
        t = torch.rand(2, dtype=inference_dtype)
        with torch.autocast("cpu", dtype=torch.float16, enabled=config.mixed_precision == "fp16"):
            noise_pred = pipeline.unet(latents, t)
            loss = (noise_pred.float() ** 2).mean()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(params, config.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(step, loss.item())


if __name__ == "__main__":
    train(Config())
