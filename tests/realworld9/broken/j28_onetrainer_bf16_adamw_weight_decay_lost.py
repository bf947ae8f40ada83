"""OneTrainer-style fine-tune with train_dtype bfloat16: the text-embedding model is cast to bfloat16 and optimized with torch.optim.AdamW(weight_decay=0.01, lr=1e-4); the decoupled decay factor 1 - lr*wd rounds to 1.0 in bfloat16, so rows that get no gradient are never decayed
source: https://github.com/Nerogar/OneTrainer/issues/996
reported-error: No weight decay with Adam, bf16 (weight decay applied in bf16 is ineffective: lr * weight_decay is far below the ~0.008 relative step bf16 can represent)
outcome: ok (silent: the AdamW steps at line 45 never decay the unused bfloat16 embedding rows, printed as "decayed unused rows: 0/N" (all N decay with --train-dtype float32))
root-cause: line 36
expect: DG013
"""
import argparse

import torch
import torch.nn as nn


def parse(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--train-dtype", default="bfloat16")
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--weight-decay", type=float, default=0.01)
    p.add_argument("--steps", type=int, default=20)
    return p.parse_args(argv)


class Embedder(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.proj = nn.Linear(d, d)

    def forward(self, ids):
        return self.proj(self.tok(ids)).mean(1)


def main(args):
    torch.manual_seed(0)
    dtype = getattr(torch, args.train_dtype)
    model = Embedder().to(dtype=dtype)  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    used = torch.arange(16)
    unused_before = model.tok.weight[16:].detach().clone()
    for step in range(args.steps):
        ids = used[torch.randint(0, 16, (8, 6))]
        loss = (model(ids).float() ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    unused_after = model.tok.weight[16:].detach()
    decayed = int((unused_after.abs() < unused_before.abs()).any(dim=1).sum())
    print(f"decayed unused rows: {decayed}/{unused_before.shape[0]}")


if __name__ == "__main__":
    main(parse([]))
