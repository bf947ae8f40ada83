"""Multi-class classifier kept in float32 (the PRECISION env var only selects the autocast dtype), trained with torch.autocast("cpu", dtype=torch.bfloat16) and an Adam built with getattr(torch.optim, name); the loss is computed on .float() logits and parameters stay finite
source: https://discuss.pytorch.org/t/the-problematic-adam-stability-in-automatic-mixed-precision-training/137434
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os

import torch
import torch.nn as nn

torch.manual_seed(0)
AUTOCAST = {"bf16": torch.bfloat16, "fp32": None}

model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 5))
opt = getattr(torch.optim, "Adam")(model.parameters(), lr=1e-3)
amp_dtype = AUTOCAST[os.environ.get("PRECISION", "bf16")]
x, y = torch.randn(128, 32), torch.randint(0, 5, (128,))
for step in range(6):
    with torch.autocast("cpu", dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = nn.functional.cross_entropy(logits.float(), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
print(f"loss {loss.item():.4f}, non-finite params {bad}, param dtype {next(model.parameters()).dtype}")
