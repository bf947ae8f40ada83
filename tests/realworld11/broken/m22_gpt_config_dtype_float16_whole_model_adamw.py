"""Tiny GPT trained from a nanoGPT-style config where dtype = 'float16' is looked up in a ptdtype map and the whole model is cast with model.to(ptdtype) (no autocast, no GradScaler, no float32 master weights); AdamW's default eps underflows in float16 and the loss turns nan after the first update
source: https://github.com/karpathy/nanoGPT/issues/167
reported-error: loss becomes nan when training with dtype = 'float16' (float32 works; lowering the learning rate only delays it)
outcome: ok (silent: after the AdamW step at line 59 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 52
expect: DG012
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

config = dict(block_size=8, vocab_size=16, n_embd=32, learning_rate=6e-4, weight_decay=0.0, dtype="float16", max_iters=5)


class Block(nn.Module):
    def __init__(self, n_embd):
        super().__init__()
        self.ln = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x):
        return x + self.mlp(self.ln(x))


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.tok = nn.Embedding(cfg["vocab_size"], cfg["n_embd"])
        self.pos = nn.Embedding(cfg["block_size"], cfg["n_embd"])
        self.blocks = nn.ModuleList([Block(cfg["n_embd"]) for _ in range(2)])
        self.head = nn.Linear(cfg["n_embd"], cfg["vocab_size"], bias=False)

    def forward(self, idx, targets):
        x = self.tok(idx) + self.pos(torch.arange(idx.size(1)))
        for blk in self.blocks:
            x = blk(x)
        logits = self.head(x)
        return F.cross_entropy(logits.float().view(-1, logits.size(-1)), targets.view(-1))


def get_batch(cfg, g):
    data = torch.arange(200) % cfg["vocab_size"]
    ix = torch.randint(len(data) - cfg["block_size"] - 1, (4,), generator=g)
    x = torch.stack([data[i:i + cfg["block_size"]] for i in ix])
    return x, torch.stack([data[i + 1:i + 1 + cfg["block_size"]] for i in ix])


def main(cfg):
    torch.manual_seed(0)
    ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[cfg["dtype"]]
    model = TinyGPT(cfg).to(ptdtype)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg["learning_rate"], weight_decay=cfg["weight_decay"])  # root-cause
    g = torch.Generator().manual_seed(0)
    for step in range(cfg["max_iters"]):
        x, y = get_batch(cfg, g)
        loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()  # fails-here
        bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
        print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")


if __name__ == "__main__":
    main(config)
