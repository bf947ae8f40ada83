"""Neural-field trainer whose make_optimizer() builds Adam param groups (encoding grid with a higher lr, MLP with weight decay) and sets capturable=True for CUDA-graph capture; the run falls back to the CPU and the first optimizer.step() asserts
source: https://github.com/PJLab-ADG/neuralsim/issues/21
reported-error: AssertionError: If capturable=True, params and state_steps must be CUDA tensors.
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 44
root-cause: line 32
expect: DG016
"""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class HashGridField(nn.Module):
    def __init__(self, levels=4, table=256, feat=2):
        super().__init__()
        self.tables = nn.Parameter(torch.randn(levels, table, feat) * 1e-2)
        self.mlp = nn.Sequential(nn.Linear(levels * feat, 32), nn.ReLU(), nn.Linear(32, 4))
        self.table = table

    def forward(self, xyz):
        idx = ((xyz * 97).long().sum(-1) % self.table)
        feats = torch.cat([self.tables[lvl][idx] for lvl in range(self.tables.size(0))], -1)
        return self.mlp(feats)


def make_optimizer(model, cfg):
    groups = [
        {"params": [model.tables], "lr": cfg["lr_encoding"]},
        {"params": model.mlp.parameters(), "lr": cfg["lr_mlp"], "weight_decay": 1e-6},
    ]
    return torch.optim.Adam(groups, betas=(0.9, 0.99), eps=1e-15, capturable=True)  # root-cause


cfg = {"lr_encoding": 1e-2, "lr_mlp": 1e-3, "iters": 5}
model = HashGridField().to(device)
optimizer = make_optimizer(model, cfg)
for it in range(cfg["iters"]):
    xyz = torch.rand(1024, 3, device=device)
    rgb_sigma = model(xyz)
    loss = (rgb_sigma[:, :3].sigmoid() - xyz).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    print(f"iter {it}: loss {loss.item():.5f}")
