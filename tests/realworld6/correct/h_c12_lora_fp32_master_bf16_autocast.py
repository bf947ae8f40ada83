"""Low-rank adapter fine-tune that keeps the trainable adapter and AdamW state in float32 and runs only the forward pass under bfloat16 autocast, so small updates are not rounded away
source: https://github.com/kyegomez/SingLoRA/issues/6
reported-error: none (fixed version: fp32 master weights)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SingLoRALayer(nn.Module):
    def __init__(self, base: nn.Linear, rank=8, alpha=8.0, ramp_up_steps=1000):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(base.in_features, rank))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scaling = alpha / rank
        self.ramp_up_steps = ramp_up_steps
        self.register_buffer("training_step", torch.tensor(0.0))

    def forward(self, x):
        if self.training:
            self.training_step += 1
        u = torch.clamp(self.training_step / self.ramp_up_steps, max=1.0)
        delta = (u * self.scaling * (self.A @ self.A.T))[: self.base.out_features]
        return self.base(x) + F.linear(x, delta)


if __name__ == "__main__":
    torch.manual_seed(0)
    proj = SingLoRALayer(nn.Linear(128, 128))
    head = nn.Linear(128, 10).requires_grad_(False)
    A0 = proj.A.detach().clone()
    optimizer = torch.optim.AdamW([proj.A], lr=1e-4, weight_decay=0.0)
    x, y = torch.randn(256, 128), torch.randint(0, 10, (256,))
    for step in range(40):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            logits = head(torch.relu(proj(x)))
        loss = F.cross_entropy(logits.float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"adapter weights changed: {(proj.A != A0).sum().item()}/{A0.numel()} ({proj.A.dtype})")
