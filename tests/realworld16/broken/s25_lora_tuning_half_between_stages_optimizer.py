"""Two-stage LoRA-style tuning loop: stage one trains in float32, then prepare_stage_two() calls model.half() "to save memory" while keeping the Adam optimizer (and its float32 state) built in get_optimizer(); the first stage-two step fails inside Adam
source: https://github.com/mymusise/ChatGLM-Tuning/issues/179
reported-error: RuntimeError: expected scalar type Half but found Float
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 40
root-cause: line 29
expect: DG015
"""
import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    def __init__(self, d, r=4):
        super().__init__()
        self.base = nn.Linear(d, d)
        self.lora_a = nn.Linear(d, r, bias=False)
        self.lora_b = nn.Linear(r, d, bias=False)
        self.base.requires_grad_(False)

    def forward(self, x):
        return self.base(x) + self.lora_b(self.lora_a(x))


def get_optimizer(model, lr=1e-3):
    return torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)


def prepare_stage_two(model):
    model.half()  # root-cause
    return model


def train_steps(model, optimizer, n):
    dtype = next(model.parameters()).dtype
    for _ in range(n):
        x = torch.randn(16, 32, dtype=dtype)
        loss = (model(x).float() - 1.0).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    return loss.item()


torch.manual_seed(0)
model = nn.Sequential(LoRALinear(32), nn.ReLU(), LoRALinear(32))
optimizer = get_optimizer(model)
print("stage one loss", train_steps(model, optimizer, 3))
model = prepare_stage_two(model)
print("stage two loss", train_steps(model, optimizer, 3))
