"""bf16-only pre-training of a small GPT-style block without autocast: the whole model is cast to bfloat16 to save memory and AdamW at lr=1e-4 updates the bf16 weights directly
source: https://github.com/zyushun/Adam-mini/issues/26
reported-error: silent: bf16-only training (no autocast, no fp32 master weights) degrades into rounding bias; updates are lost
outcome: ok (silent: after 30 AdamW steps at lr=1e-4 only 3456 of the 17312 bfloat16 weights changed at all, printed as "weights changed: 3456/17312" (17312/17312 with --dtype fp32); the updates applied at line 54 round away)
root-cause: line 45
expect: DG013
"""
import argparse

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d_model=32, n_head=4):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = nn.MultiheadAttention(d_model, n_head, batch_first=True)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab=64, d_model=32, block_size=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d_model)
        self.wpe = nn.Embedding(block_size, d_model)
        self.block = Block(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.size(1))
        return self.lm_head(self.block(self.wte(idx) + self.wpe(pos)))


def main(args):
    torch.manual_seed(0)
    model = GPT()
    if args.dtype == "bf16":
        model = model.to(torch.bfloat16)  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, 0.95), weight_decay=0.1)
    before = [p.detach().clone() for p in model.parameters()]
    data = torch.randint(0, 64, (8, 17))
    for it in range(args.iters):
        logits = model(data[:, :-1])
        loss = nn.functional.cross_entropy(logits.float().reshape(-1, 64), data[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(b.numel() for b in before)
    print(f"final loss {loss.item():.4f}; weights changed: {changed}/{total}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", choices=["bf16", "fp32"], default="bf16")
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--iters", type=int, default=30)
    main(ap.parse_args())
