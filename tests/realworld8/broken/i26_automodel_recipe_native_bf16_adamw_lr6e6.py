"""VLM fine-tuning recipe (AutoModel-style YAML turned into a dict): the model is loaded in bfloat16 and torch.optim.AdamW updates the bf16-resident parameters directly at lr=6.0e-6, with no fp32 master weights
source: https://github.com/NVIDIA-NeMo/Automodel/pull/3444
reported-error: silent: at 6.0e-6, directly updating BF16-resident parameters causes many optimizer steps to round back to the same BF16 value
outcome: ok (silent: after 20 AdamW steps only a small share of the bfloat16 weights changed at all, printed as "weights changed: N/M" with N far below M/2 (all move with --dtype float32); the updates applied at line 58 round away)
root-cause: line 36
expect: DG013
"""
import argparse

import torch
import torch.nn as nn

RECIPE = {
    "model": {"hidden": 64, "vocab": 128, "torch_dtype": "bfloat16"},
    "optimizer": {"_target_": "torch.optim.AdamW", "lr": 6.0e-6, "betas": (0.9, 0.95), "weight_decay": 0.0},
    "step_scheduler": {"max_steps": 20, "global_batch_size": 8},
}


class TinyVLM(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.vision_proj = nn.Linear(48, hidden)
        self.embed = nn.Embedding(vocab, hidden)
        self.block = nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, pixel_feats, input_ids):
        h = torch.cat([self.vision_proj(pixel_feats), self.embed(input_ids)], dim=1)
        return self.lm_head(h + self.block(h))


def build_model(cfg, dtype_override=None):
    model = TinyVLM(cfg["hidden"], cfg["vocab"])
    dtype = getattr(torch, dtype_override or cfg["torch_dtype"])
    return model.to(dtype=dtype)  # root-cause


def build_optimizer(cfg, params):
    kwargs = {k: v for k, v in cfg.items() if k != "_target_"}
    return torch.optim.AdamW(params, **kwargs)


def main(args):
    torch.manual_seed(0)
    model = build_model(RECIPE["model"], args.dtype)
    optimizer = build_optimizer(RECIPE["optimizer"], model.parameters())
    before = [p.detach().clone() for p in model.parameters()]
    bsz = RECIPE["step_scheduler"]["global_batch_size"]
    pixel_feats = torch.randn(bsz, 4, 48)
    input_ids = torch.randint(0, RECIPE["model"]["vocab"], (bsz, 12))
    dtype = next(model.parameters()).dtype
    for step in range(RECIPE["step_scheduler"]["max_steps"]):
        logits = model(pixel_feats.to(dtype), input_ids[:, :-1])[:, 4:]
        loss = nn.functional.cross_entropy(logits.float().reshape(-1, logits.size(-1)), input_ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(b.numel() for b in before)
    print(f"final loss {loss.item():.4f}; weights changed: {changed}/{total}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default=None, help="override the recipe's torch_dtype, e.g. float32")
    main(ap.parse_args())
