"""Fine-tuning recipe driven by a hydra-like nested dict config whose model.torch_dtype is "bfloat16"; instantiate() builds the model and casts it with .to(dtype) so AdamW (lr 1e-5, target resolved from "_target_") owns bfloat16 weights; most updates round away and the weights barely move (printed as "weights changed: X/Y")
source: https://github.com/NVIDIA-NeMo/Automodel/pull/2248
reported-error: with model.torch_dtype: bfloat16 and torch.optim.AdamW, small updates are rounded away in bf16 (slower convergence, silent degradation)
outcome: ok (silent: after the AdamW steps at line 65 fewer than half of the bfloat16 weights changed at all, printed as "weights changed: X/Y")
root-cause: line 45
expect: DG013
"""
import copy
import importlib

import torch
import torch.nn as nn

CONFIG = {
    "model": {"vocab": 64, "dim": 48, "layers": 2, "torch_dtype": "bfloat16"},
    "optimizer": {"_target_": "torch.optim.AdamW", "lr": 1.0e-5, "betas": [0.9, 0.95], "weight_decay": 0.0},
    "step_scheduler": {"max_steps": 6, "grad_acc_steps": 2},
    "dataset": {"seq_len": 16, "batch_size": 4},
}


def resolve(target):
    module, name = target.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


class TinyLM(nn.Module):
    def __init__(self, vocab, dim, layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(),
                                                  nn.Linear(2 * dim, dim)) for _ in range(layers))
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            h = h + block(h)
        return self.lm_head(h)


def instantiate_model(cfg):
    model_cfg = dict(cfg)
    dtype = getattr(torch, model_cfg.pop("torch_dtype"))
    return TinyLM(**model_cfg).to(dtype)  # root-cause


def instantiate_optimizer(cfg, params):
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in cfg.items() if k != "_target_"}
    return resolve(cfg["_target_"])(params, **kwargs)


def main(cfg):
    torch.manual_seed(0)
    model = instantiate_model(cfg["model"])
    before = copy.deepcopy(model.state_dict())
    optimizer = instantiate_optimizer(cfg["optimizer"], model.parameters())
    sched, data = cfg["step_scheduler"], cfg["dataset"]
    for step in range(sched["max_steps"]):
        for _ in range(sched["grad_acc_steps"]):
            ids = torch.randint(0, cfg["model"]["vocab"], (data["batch_size"], data["seq_len"] + 1))
            logits = model(ids[:, :-1])
            loss = nn.functional.cross_entropy(logits.flatten(0, 1).float(), ids[:, 1:].flatten())
            (loss / sched["grad_acc_steps"]).backward()
        optimizer.step()  # fails-here
        optimizer.zero_grad()
    changed = sum(int((model.state_dict()[k] != v).sum()) for k, v in before.items())
    total = sum(v.numel() for v in before.values())
    print(f"loss {loss.item():.4f}; weights changed: {changed}/{total}")


if __name__ == "__main__":
    main(CONFIG)
