"""LoRA fine-tune of an fp16 base model where the trainable adapters are kept in float32 (inputs cast in forward), so GradScaler only sees fp32 gradients
source: https://github.com/mark1879/Baichuan-13B-Finetuning/issues/21
reported-error: ValueError: Attempting to unscale FP16 gradients. (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LoraLinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, dtype=torch.float32))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, dtype=torch.float32))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.scaling = alpha / r

    def forward(self, x):
        delta = (x.to(self.lora_A.dtype) @ self.lora_A.t() @ self.lora_B.t()) * self.scaling
        return self.base(x) + delta.to(x.dtype)


class BaichuanTiny(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.W_pack = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.lm_head(torch.relu(self.W_pack(self.embed(ids))))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BaichuanTiny().half().to(device).requires_grad_(False)
    model.W_pack = LoraLinear(model.W_pack).to(device)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=1e-4)
    scaler = torch.amp.GradScaler(device.type)
    for step in range(3):
        ids = torch.randint(0, 100, (2, 16), device=device)
        logits = model(ids[:, :-1]).float()
        loss = F.cross_entropy(logits.reshape(-1, 100), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        print(step, loss.item(), trainable[0].dtype)


if __name__ == "__main__":
    main()
