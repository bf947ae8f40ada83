"""Speculative-decoding draft-head training recipe (DSpark-style YAML config as a dict): the draft model is stored in bfloat16 and build_optimizer() hands its parameters straight to torch.optim.AdamW, so there are no float32 master weights and small updates such as the RMSNorm weights' are rounded away at every step
source: https://github.com/NVIDIA-NeMo/Automodel/pull/3875
reported-error: This defaults to plain torch.optim.AdamW, while the recipe stores most draft parameters, including RMSNorm weights initialized to 1, in BF16 ... a BF16 parameter at 1 and constant gradient 0.01 stays at 1 after 100 steps; the FP32 equivalent reaches 0.940002
outcome: ok (silent: the bfloat16 RMSNorm weight never moves from 1.0; the run prints 'final_norm.weight mean 1.000000')
root-cause: line 57
expect: DG013
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

RECIPE = {
    "model": {"hidden_size": 32, "vocab_size": 64, "draft_layers": 1, "dtype": "bfloat16"},
    "loss": {"ce_loss_alpha": 0.1, "l1_loss_alpha": 0.9},
    "optimizer": {"lr": 6.0e-4, "betas": (0.9, 0.95), "weight_decay": 0.0},
    "max_grad_norm": 1.0,
    "steps": 100,
}


# ---- dspark/modeling.py
class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return (x32 * self.weight.float()).to(x.dtype)


class DraftHead(nn.Module):
    def __init__(self, hidden_size, vocab_size):
        super().__init__()
        self.fc = nn.Linear(2 * hidden_size, hidden_size)
        self.block = nn.Sequential(nn.Linear(hidden_size, 2 * hidden_size), nn.SiLU(), nn.Linear(2 * hidden_size, hidden_size))
        self.final_norm = RMSNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, target_hidden, token_emb):
        h = self.fc(torch.cat([target_hidden, token_emb], dim=-1))
        h = h + self.block(h)
        h = self.final_norm(h)
        return h, self.lm_head(h)


def build_draft_model(cfg):
    dtype = getattr(torch, cfg["model"]["dtype"])
    return DraftHead(cfg["model"]["hidden_size"], cfg["model"]["vocab_size"]).to(dtype)


# ---- dspark/train.py
def build_optimizer(cfg, model):
    o = cfg["optimizer"]
    return torch.optim.AdamW(model.parameters(), lr=o["lr"], betas=o["betas"], weight_decay=o["weight_decay"])  # root-cause


def train(cfg):
    torch.manual_seed(0)
    draft_model = build_draft_model(cfg)
    optimizer = build_optimizer(cfg, draft_model)
    emb = nn.Embedding(cfg["model"]["vocab_size"], cfg["model"]["hidden_size"]).to(torch.bfloat16).requires_grad_(False)
    for step in range(cfg["steps"]):
        tokens = torch.randint(0, cfg["model"]["vocab_size"], (4, 8))
        target_hidden = torch.randn(4, 8, cfg["model"]["hidden_size"], dtype=torch.bfloat16)
        h, logits = draft_model(target_hidden, emb(tokens))
        ce = F.cross_entropy(logits.float().flatten(0, 1), tokens.roll(-1, dims=1).flatten())
        l1 = F.l1_loss(h.float(), target_hidden.float())
        loss = cfg["loss"]["ce_loss_alpha"] * ce + cfg["loss"]["l1_loss_alpha"] * l1
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(draft_model.parameters(), cfg["max_grad_norm"])
        optimizer.step()  # fails-here
        if step % 25 == 0:
            print(f"step {step} loss {loss.item():.4f}")
    w = draft_model.final_norm.weight.float()
    print(f"final_norm.weight mean {w.mean().item():.6f} min {w.min().item():.6f} max {w.max().item():.6f}")


if __name__ == "__main__":
    train(RECIPE)
