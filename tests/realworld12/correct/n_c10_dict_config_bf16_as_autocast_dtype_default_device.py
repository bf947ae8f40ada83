"""Fine-tuning recipe with the same hydra-like dict config (torch_dtype "bfloat16", AdamW from "_target_"), where the dtype is used only as the autocast dtype: the model is built under torch.set_default_device(device) (device chosen with torch.cuda.is_available()), keeps float32 master weights, and uses gradient checkpointing
source: https://github.com/NVIDIA-NeMo/Automodel/pull/2248
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import importlib

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint

CONFIG = {
    "model": {"vocab": 64, "dim": 48, "layers": 2, "torch_dtype": "bfloat16"},
    "optimizer": {"_target_": "torch.optim.AdamW", "lr": 1.0e-3, "betas": [0.9, 0.95]},
    "steps": 4,
}


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU()) for _ in range(layers))
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = h + checkpoint(block, h, use_reentrant=False)
        return self.lm_head(h)


def main(cfg):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.set_default_device(device)
    model_cfg = dict(cfg["model"])
    amp_dtype = getattr(torch, model_cfg.pop("torch_dtype"))
    model = TinyLM(**model_cfg)
    opt_cfg = dict(cfg["optimizer"])
    module, name = opt_cfg.pop("_target_").rsplit(".", 1)
    opt_cfg["betas"] = tuple(opt_cfg["betas"])
    optimizer = getattr(importlib.import_module(module), name)(model.parameters(), **opt_cfg)
    for step in range(cfg["steps"]):
        ids = torch.randint(0, model_cfg["vocab"], (4, 17))
        with torch.autocast(device.type, dtype=amp_dtype):
            logits = model(ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.flatten(0, 1).float(), ids[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}, param dtype {model.lm_head.weight.dtype}")
    torch.set_default_device("cpu")


if __name__ == "__main__":
    main(CONFIG)
