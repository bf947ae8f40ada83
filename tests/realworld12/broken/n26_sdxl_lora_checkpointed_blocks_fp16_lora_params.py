"""SDXL-LoRA style fine-tune that loads the frozen base in float16, wraps its blocks with gradient checkpointing, and attaches LoRA adapters created with dtype=weight_dtype so they match the base; the trainable parameters are float16 and GradScaler.step raises on the first step
source: https://github.com/huggingface/diffusers/issues/6442
reported-error: ValueError: Attempting to unscale FP16 gradients. (maintainer: cast the trainable parameters to torch.float32)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 70
root-cause: line 53
expect: DG014
"""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

CFG = {"dim": 32, "blocks": 3, "rank": 4, "lr": 1e-4, "steps": 3, "mixed_precision": "fp16"}
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "no": torch.float32}


class Adapter(nn.Module):
    def __init__(self, dim, rank, dtype):
        super().__init__()
        self.down = nn.Parameter(torch.randn(dim, rank, dtype=dtype) * 0.01)
        self.up = nn.Parameter(torch.zeros(rank, dim, dtype=dtype))

    def forward(self, h):
        return h @ self.down @ self.up


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.adapter = None

    def forward(self, h):
        out = self.ff(h)
        if self.adapter is not None:
            out = out + self.adapter(h)
        return h + out


class Denoiser(nn.Module):
    def __init__(self, dim, n_blocks):
        super().__init__()
        self.blocks = nn.ModuleList(Block(dim) for _ in range(n_blocks))
        self.gradient_checkpointing = False

    def forward(self, h):
        for block in self.blocks:
            h = checkpoint(block, h, use_reentrant=False) if self.gradient_checkpointing else block(h)
        return h


def attach_lora(model, rank, weight_dtype):
    for block in model.blocks:
        block.adapter = Adapter(block.ff[1].in_features, rank, dtype=weight_dtype)  # root-cause
    return [p for n, p in model.named_parameters() if "adapter" in n]


def main(cfg):
    weight_dtype = DTYPES[cfg["mixed_precision"]]
    unet = Denoiser(cfg["dim"], cfg["blocks"]).to(dtype=weight_dtype).requires_grad_(False)
    unet.gradient_checkpointing = True
    params_to_optimize = attach_lora(unet, cfg["rank"], weight_dtype)
    optimizer = torch.optim.AdamW(params_to_optimize, lr=cfg["lr"])
    scaler = torch.amp.GradScaler("cpu", enabled=cfg["mixed_precision"] == "fp16")
    for step in range(cfg["steps"]):
        noisy, noise = torch.randn(8, cfg["dim"]), torch.randn(8, cfg["dim"])
        with torch.autocast("cpu", dtype=weight_dtype):
            pred = unet(noisy.to(weight_dtype))
        loss = nn.functional.mse_loss(pred.float(), noise)
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # fails-here
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main(CFG)
