"""LoRA fine-tuning with mixed_precision="fp16": the LoRA adapters are injected first and the whole transformer (adapters included) is then cast to weight_dtype, while the GradScaler path unscales before gradient clipping
source: https://github.com/zai-org/CogVideo/issues/775
reported-error: ValueError: Attempting to unscale FP16 gradients. (from accelerator.clip_grad_norm_ -> scaler.unscale_)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 61
root-cause: line 51
expect: DG014
"""
import argparse

import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, rank, bias=False)
        self.lora_B = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = alpha / rank

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x)) * self.scaling


class TinyTransformer3D(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.to_q = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.proj_out = nn.Linear(dim, dim)

    def forward(self, latents):
        q, v = self.to_q(latents), self.to_v(latents)
        attn = torch.softmax(q @ q.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return self.proj_out(attn @ v)


def add_lora(model, rank):
    for name in ("to_q", "to_v"):
        setattr(model, name, LoRALinear(getattr(model, name), rank=rank))
    for n, p in model.named_parameters():
        p.requires_grad_("lora_" in n)


def main(args):
    weight_dtype = {"fp16": torch.float16, "bf16": torch.bfloat16, "no": torch.float32}[args.mixed_precision]
    transformer = TinyTransformer3D()
    add_lora(transformer, args.rank)
    transformer.to(dtype=weight_dtype)  # root-cause
    params = [p for p in transformer.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=args.learning_rate)
    scaler = torch.amp.GradScaler("cpu", enabled=args.mixed_precision == "fp16")
    for step in range(args.max_train_steps):
        latents = torch.randn(2, 16, 32)
        with torch.autocast("cpu", dtype=weight_dtype, enabled=args.mixed_precision != "no"):
            model_pred = transformer(latents.to(weight_dtype))
            loss = (model_pred.float() - latents).pow(2).mean()
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        grad_norm = torch.nn.utils.clip_grad_norm_(params, args.max_grad_norm)
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.4f} grad_norm {grad_norm.item():.3f}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--mixed_precision", default="fp16", choices=["no", "fp16", "bf16"])
    p.add_argument("--rank", type=int, default=4)
    p.add_argument("--learning_rate", type=float, default=1e-4)
    p.add_argument("--max_grad_norm", type=float, default=1.0)
    p.add_argument("--max_train_steps", type=int, default=3)
    main(p.parse_args())
