"""SingLoRA fine-tune (single low-rank matrix A, update u(t) * A @ A.T with a ramp-up factor) where the whole model, adapters included, is cast to bfloat16 and trained with AdamW
source: https://github.com/kyegomez/SingLoRA/issues/6
reported-error: silent: with bf16 and ~1000 ramp-up steps the updates become too small; until step 100 most adapter values do not move and the model collapses
outcome: ok (silent: after 40 AdamW steps at lr=1e-4 only 192 of the 1024 bfloat16 adapter weights changed at all (all 1024 change with --dtype fp32); the updates applied at line 70 round away)
root-cause: line 61
expect: DG013
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SingLoRALayer(nn.Module):
    def __init__(self, base: nn.Linear, rank=8, alpha=8.0, ramp_up_steps=1000):
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(base.in_features, rank))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scaling = alpha / rank
        self.ramp_up_steps = ramp_up_steps
        self.register_buffer("training_step", torch.tensor(0.0))

    def _get_update_weight(self):
        u = torch.clamp(self.training_step / self.ramp_up_steps, max=1.0)
        return u * self.scaling * (self.A @ self.A.T)

    def forward(self, x):
        if self.training:
            self.training_step += 1
        return self.base(x) + F.linear(x, self._get_update_weight()[: self.base.out_features])


class Backbone(nn.Module):
    def __init__(self, dim=128, n_classes=10):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(torch.relu(self.proj(x)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", default="bf16", choices=["bf16", "fp32"])
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--ramp_up_steps", type=int, default=1000)
    args = parser.parse_args()
    torch.manual_seed(0)
    model = Backbone()
    model.proj = SingLoRALayer(model.proj, rank=8, ramp_up_steps=args.ramp_up_steps)
    for p in model.head.parameters():
        p.requires_grad_(False)
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float32
    model = model.to(dtype)  # root-cause
    A0 = model.proj.A.detach().clone()
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr, weight_decay=0.0)
    x = torch.randn(256, 128, dtype=dtype)
    y = torch.randint(0, 10, (256,))
    for step in range(args.steps):
        loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        if step % 10 == 0:
            print(f"step {step} loss {loss.item():.4f}")
    changed = (model.proj.A.detach() != A0).sum().item()
    print(f"adapter weights changed: {changed}/{A0.numel()} ({args.dtype})")


if __name__ == "__main__":
    main()
