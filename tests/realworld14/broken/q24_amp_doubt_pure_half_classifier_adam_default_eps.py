"""Multi-class classifier where, after NaNs under AMP, the author drops autocast and makes the whole model float16 via a build_model(precision=os.environ.get("PRECISION", "fp16")) factory; optimizer built with getattr(torch.optim, "Adam") and the default eps=1e-8 (0 in float16); parameters turn non-finite without an error
source: https://discuss.pytorch.org/t/the-problematic-adam-stability-in-automatic-mixed-precision-training/137434
reported-error: none raised (loss goes to NaN with Adam and mixed/half precision)
outcome: ok (silent: after the Adam steps at line 35 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 19
expect: DG012
"""
import os

import torch
import torch.nn as nn

torch.manual_seed(0)
PRECISIONS = {"fp32": torch.float32, "fp16": torch.float16}


def build_model(precision):
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 5))
    return model.to(PRECISIONS[precision])  # root-cause


def build_optimizer(model, name="Adam", **kw):
    return getattr(torch.optim, name)(model.parameters(), **kw)


precision = os.environ.get("PRECISION", "fp16")
model = build_model(precision)
opt = build_optimizer(model, "Adam", lr=1e-3)
x = torch.randn(128, 32).to(PRECISIONS[precision])
y = torch.randint(0, 5, (128,))
for step in range(6):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()  # fails-here
    bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
    print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")
