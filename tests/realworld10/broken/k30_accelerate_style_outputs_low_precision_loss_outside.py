"""accelerate-style mixed-precision wrapper: prepare() patches model.forward to run under torch.autocast (bfloat16 on CPU) but returns the outputs as they come, so the user's softmax cross-entropy, computed outside any autocast context, runs entirely in bfloat16 without any error
source: https://github.com/huggingface/accelerate/pull/134
reported-error: outputs are computed in mixed precision but returned in FP16, and the loss computation is not inside autocast, so it is executed in full FP16 (generally unstable, especially for softmax); the fix converts outputs back to FP32
outcome: ok (silent: the loss at line 35 is computed from the bfloat16 logits in bfloat16, printed as "loss dtype torch.bfloat16")
root-cause: line 25
expect: DG017
"""
import functools

import torch
import torch.nn as nn


class Accelerator:
    def __init__(self, mixed_precision="bf16"):
        self.dtype = {"bf16": torch.bfloat16, "no": None}[mixed_precision]

    def prepare(self, model):
        if self.dtype is not None:
            model.forward = functools.partial(self._autocast_forward, model.forward)
        return model

    def _autocast_forward(self, forward, *args, **kwargs):
        with torch.autocast("cpu", dtype=self.dtype):
            return forward(*args, **kwargs)  # root-cause


model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 10))
accelerator = Accelerator("bf16")
model = accelerator.prepare(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x, y = torch.randn(64, 32), torch.randint(0, 10, (64,))
for step in range(3):
    logits = model(x)
    loss = -torch.log_softmax(logits, dim=-1).gather(1, y[:, None]).mean()  # fails-here
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}, loss dtype {loss.dtype}")
