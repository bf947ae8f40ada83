"""LoRA-style trainer with a full_fp16 option: prepare_network(cfg) casts the whole trainable network to float16 when cfg["full_fp16"] is set, and the optimizer is a plain torch.optim.Adam with the default eps=1e-8 (0 in float16); the loss turns NaN after the first steps without an error
source: https://github.com/kohya-ss/sd-scripts/issues/2116
reported-error: none raised (NaN on the second training step with full fp16 and some optimizers)
outcome: ok (silent: after the Adam steps at line 43 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 29
expect: DG012
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
cfg = {"full_fp16": True, "network_dim": 16, "learning_rate": 1e-3, "max_train_steps": 6}


class LoRANetwork(nn.Module):
    def __init__(self, dim, rank):
        super().__init__()
        self.down = nn.Linear(dim, rank, bias=False)
        self.up = nn.Linear(rank, dim, bias=False)
        nn.init.zeros_(self.up.weight)

    def forward(self, h):
        return h + self.up(self.down(h))


def prepare_network(cfg):
    network = nn.Sequential(nn.Linear(32, 64), nn.GELU(), LoRANetwork(64, cfg["network_dim"]), nn.Linear(64, 32))
    if cfg["full_fp16"]:
        network = network.to(torch.float16)  # root-cause
    return network


network = prepare_network(cfg)
dtype = next(network.parameters()).dtype
optimizer = torch.optim.Adam(network.parameters(), lr=cfg["learning_rate"])
latents = torch.randn(64, 32).to(dtype)
noise = torch.randn(64, 32).to(dtype) * 1e-2
for step in range(cfg["max_train_steps"]):
    pred = network(latents)
    loss = ((pred - noise) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    bad = sum(int((~torch.isfinite(p)).sum()) for p in network.parameters())
    print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")
