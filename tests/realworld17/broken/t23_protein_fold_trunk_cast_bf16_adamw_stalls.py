"""Small protein-structure trunk trained "in bf16 to save memory": the model factory casts the whole module with .to(torch.bfloat16) instead of autocasting, and AdamW at lr=1e-4 applies updates far below bfloat16's resolution near the weights, so most parameters never change and training stalls silently
source: https://github.com/ogchen/nanofold/pull/23
reported-error: none raised (PR: remove autocasting directly to bfloat16)
outcome: ok (silent: after 20 AdamW steps at lr=1e-4 fewer than half of the bfloat16 weights changed at all, printed as "weights changed: K/N"; the updates applied at line 43 round away)
root-cause: line 28
expect: DG013
"""
import torch
import torch.nn as nn


class PairStack(nn.Module):
    def __init__(self, c_z=32):
        super().__init__()
        self.norm = nn.LayerNorm(c_z)
        self.mlp = nn.Sequential(nn.Linear(c_z, 4 * c_z), nn.ReLU(), nn.Linear(4 * c_z, c_z))
        self.dist_head = nn.Linear(c_z, 16)

    def forward(self, z):
        z = z + self.mlp(self.norm(z))
        return self.dist_head(z)


def model_factory(cfg):
    torch.manual_seed(0)
    model = PairStack(cfg["c_z"])
    if cfg["precision"] == "bf16":
        model = model.to(torch.bfloat16)  # root-cause
    return model


cfg = {"c_z": 32, "precision": "bf16", "lr": 1e-4, "steps": 20}
model = model_factory(cfg)
dtype = next(model.parameters()).dtype
optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=0.0)
before = [p.detach().clone() for p in model.parameters()]
for step in range(cfg["steps"]):
    z = torch.randn(2, 12, 12, cfg["c_z"]).to(dtype)
    bins = torch.randint(0, 16, (2, 12, 12))
    loss = nn.functional.cross_entropy(model(z).float().reshape(-1, 16), bins.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
total = sum(p.numel() for p in model.parameters())
print(f"loss {loss.item():.4f}; weights changed: {changed}/{total}")
