"""Fine-tuning checkpoint whose "hyper_parameters" entry is dataclasses.asdict(cfg), a plain dict of ints, floats, strings and a list, so the best checkpoint reloads with torch.load's default weights_only=True and the config is rebuilt with ModelConfig(**...)
source: https://github.com/GET-Foundation/get_model/issues/23
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from dataclasses import asdict, dataclass, field

import torch
import torch.nn as nn


@dataclass
class ModelConfig:
    n_peaks: int = 32
    hidden: int = 64
    lr: float = 1e-3
    tags: list = field(default_factory=lambda: ["pbmc", "finetune"])


def build(cfg):
    return nn.Sequential(nn.Linear(cfg.n_peaks, cfg.hidden), nn.GELU(), nn.Linear(cfg.hidden, 1))


cfg = ModelConfig()
model = build(cfg)
opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
x, y = torch.randn(128, cfg.n_peaks), torch.randn(128, 1)
for _ in range(5):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
path = os.path.join(tempfile.mkdtemp(), "best-epoch=0.ckpt")
torch.save({"state_dict": model.state_dict(), "hyper_parameters": asdict(cfg), "epoch": 0}, path)

ckpt = torch.load(path, map_location="cpu")
restored = build(ModelConfig(**ckpt["hyper_parameters"]))
restored.load_state_dict(ckpt["state_dict"])
print(restored.eval()(torch.randn(2, 32)))
