"""CLIP-style training loop whose cosine scheduler helper returns a numpy.float64 (np.cos on a NumPy step) and writes it straight into optimizer.param_groups; the saved optimizer state therefore pickles NumPy scalars and the default weights_only torch.load on resume refuses the file
source: https://github.com/NVIDIA-TAO/tao-pytorch/pull/90
reported-error: TAO's CLIP cosine scheduler returned a numpy.float64 and assigned it directly to optimizer parameter groups ... not accepted by the restricted weights_only=True checkpoint loader under the NumPy 2.x runtime
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 58
root-cause: line 24
expect: DG011
"""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_lr(optimizer, base_lr, warmup, total):
    def _step(step):
        if step < warmup:
            lr = base_lr * (step + 1) / warmup
        else:
            e = np.float64(step - warmup)
            lr = 0.5 * (1 + np.cos(np.pi * e / (total - warmup))) * base_lr
        for group in optimizer.param_groups:
            group["lr"] = lr  # root-cause
        return lr
    return _step


class TinyCLIP(nn.Module):
    def __init__(self, d_img=32, d_txt=24, d=16):
        super().__init__()
        self.visual = nn.Linear(d_img, d)
        self.text = nn.Linear(d_txt, d)
        self.logit_scale = nn.Parameter(torch.tensor(np.log(1 / 0.07), dtype=torch.float32))

    def forward(self, img, txt):
        i = F.normalize(self.visual(img), dim=-1)
        t = F.normalize(self.text(txt), dim=-1)
        return self.logit_scale.exp() * i @ t.t()


model = TinyCLIP()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4, weight_decay=0.1)
scheduler = cosine_lr(optimizer, 5e-4, warmup=2, total=10)
for step in range(6):
    scheduler(step)
    img, txt = torch.randn(16, 32), torch.randn(16, 24)
    logits = model(img, txt)
    labels = torch.arange(16)
    loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.t(), labels)) / 2
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

buf = io.BytesIO()
torch.save({"epoch": 1, "state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}, buf)
buf.seek(0)
checkpoint = torch.load(buf, map_location="cpu")  # fails-here
optimizer.load_state_dict(checkpoint["optimizer"])
print("resumed at epoch", checkpoint["epoch"])
