"""Action-head fine-tuning on a GPU without bfloat16 support: the training config maps precision "fp16" to torch.float16 and the whole policy head is converted to it, then trained with AdamW at its default eps=1e-8 (0 in float16); the first step prints a finite loss, after that step the parameters are inf/NaN and the loss is nan
source: https://github.com/openvla/openvla/issues/30
reported-error: train_loss becomes NaN when the code's bfloat16 is replaced with float16 on a Titan GPU (float16 overflows/underflows where bfloat16 does not)
outcome: ok (silent: after the AdamW step at line 39 the float16 parameters become non-finite, printed as "step N: loss ..., non-finite params K" with K above 0 and the loss turning nan)
root-cause: line 27
expect: DG012
"""
import torch
import torch.nn as nn

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
cfg = {"precision": "fp16", "lr": 2e-4, "steps": 6, "hidden": 64}


class ActionHead(nn.Module):
    def __init__(self, d_in=32, hidden=64, n_actions=7):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d_in, hidden), nn.GELU(), nn.Linear(hidden, n_actions))

    def forward(self, feats):
        return self.mlp(feats)


def build(cfg):
    dtype = DTYPES[cfg["precision"]]
    head = ActionHead(hidden=cfg["hidden"]).to(dtype)
    optimizer = torch.optim.AdamW(head.parameters(), lr=cfg["lr"])  # root-cause
    return head, optimizer, dtype


torch.manual_seed(0)
head, optimizer, dtype = build(cfg)
feats = torch.randn(64, 32).to(dtype)
actions = (torch.randn(64, 7) * 1e-3).to(dtype)
for step in range(cfg["steps"]):
    loss = ((head(feats) - actions) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    bad = sum(int((~torch.isfinite(p)).sum()) for p in head.parameters())
    print(f"step {step}: loss {loss.item():.6f}, non-finite params {bad}")
