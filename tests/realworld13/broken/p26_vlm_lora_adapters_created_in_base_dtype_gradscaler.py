"""Vision-language LoRA fine-tune: the base model is loaded in float16 (torch_dtype=torch.float16) and add_lora() creates the adapter matrices with dtype=base.weight.dtype, so the only trainable parameters are float16; the fp16 loop with GradScaler then calls unscale_ before gradient clipping
source: https://github.com/huggingface/transformers/issues/30559
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 59
root-cause: line 17
expect: DG014
"""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.randn(r, base.in_features, dtype=base.weight.dtype) * 0.01)  # root-cause
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=base.weight.dtype))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scaling


class TinyVLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_proj = nn.Linear(48, 64)
        self.q_proj = nn.Linear(64, 64)
        self.v_proj = nn.Linear(64, 64)
        self.lm_head = nn.Linear(64, 100)

    def forward(self, pixels):
        h = torch.relu(self.vision_proj(pixels))
        return self.lm_head(torch.relu(self.q_proj(h)) + self.v_proj(h))


def from_pretrained(torch_dtype):
    return TinyVLM().to(torch_dtype)


def add_lora(model, targets=("q_proj", "v_proj")):
    for p in model.parameters():
        p.requires_grad_(False)
    for name in targets:
        setattr(model, name, LoRALinear(getattr(model, name)))
    return model


model = add_lora(from_pretrained(torch_dtype=torch.float16))
params = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.AdamW(params, lr=1e-4)
scaler = torch.amp.GradScaler("cpu")
for step in range(3):
    pixels = torch.randn(8, 48, dtype=torch.float16)
    labels = torch.randint(0, 100, (8,))
    with torch.autocast("cpu", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(pixels).float(), labels)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)  # fails-here
    torch.nn.utils.clip_grad_norm_(params, 1.0)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    print(f"step {step}: loss {loss.item():.4f}")
