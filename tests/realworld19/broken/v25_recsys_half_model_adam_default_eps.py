"""Session-based recommender (GRU4Rec-like) trained "in half precision" by calling model.half() before building the optimizer: torch.optim.Adam keeps its default eps=1e-8, which is 0 in float16, so item-embedding rows that get no gradient divide 0 by 0 on the first step and the NaNs spread into the loss
source: https://github.com/juntang-zhuang/Adabelief-Optimizer/issues/31
reported-error: Adam performance/stability in half precision: eps of 1e-8 is not representable in FP16; updates become unstable (Should this work with Mixed precision training?)
outcome: ok (silent: the Adam update applied at line 55 writes NaN into float16 parameters; after step 0 (finite loss) all 7 parameter tensors hold NaN, printed as "step 0: loss 5.3493, non-finite params 7" then "step 1: loss nan, non-finite params 7")
root-cause: line 38
expect: DG012
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


class GRU4Rec(nn.Module):
    def __init__(self, n_items=200, dim=32):
        super().__init__()
        self.item_emb = nn.Embedding(n_items, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, n_items)

    def forward(self, sessions):
        h, _ = self.gru(self.item_emb(sessions))
        return self.out(h[:, -1])


def make_sessions(n=256, length=6, n_items=200, seed=0):
    rng = np.random.default_rng(seed)
    popular = rng.choice(n_items, 40, replace=False)
    seqs = rng.choice(popular, (n, length + 1))
    return torch.from_numpy(seqs[:, :-1]), torch.from_numpy(seqs[:, -1])


def build(args):
    model = GRU4Rec()
    if args.precision == 16:
        model = model.half()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)  # root-cause
    return model, optimizer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--precision", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model, optimizer = build(args)
    sessions, targets = make_sessions()
    for step in range(4):
        logits = model(sessions)
        loss = nn.functional.cross_entropy(logits.float(), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        bad = sum(int((~torch.isfinite(p)).any()) for p in model.parameters())
        print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")


if __name__ == "__main__":
    main()
