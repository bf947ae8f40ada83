"""Speedrun-style GPT training with the weights converted to bfloat16 and updated in place by Adam (no fp32 master copy): once the LR warms down, most updates round away
source: https://github.com/KellerJordan/modded-nanogpt/pull/74
reported-error: silent: weights converted to bfloat16 for a ~2 s speedup; reviewer: a better choice is a master weight in the optimizer, BF16 accumulation is only 'safe now (probably)' because the lr decays to 0.1x peak, longer runs might decay it further
outcome: ok (silent: with the default --dtype bfloat16 the final val loss is 3.406 and only 39% of weight entries change during the warmdown phase, vs 3.218 and 100% with --dtype float32; the lost updates are rounded away in optimizer.step at line 83)
root-cause: line 71
expect: DG013
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, n_head, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)

    def forward(self, x, mask):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size=32, dim=32, n_head=4, n_layer=2, block_size=16):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, dim)
        self.wpe = nn.Embedding(block_size, dim)
        self.blocks = nn.ModuleList([Block(dim, n_head) for _ in range(n_layer)])
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, idx, targets):
        T = idx.size(1)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=idx.device), 1)
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        for blk in self.blocks:
            x = blk(x, mask)
        logits = self.lm_head(x).float()
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))


def get_batch(data, batch_size=8, block_size=16):
    ix = torch.randint(len(data) - block_size - 1, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x, y


def get_lr(it, num_iterations, warmdown_iters, base_lr):
    if it < num_iterations - warmdown_iters:
        return base_lr
    return base_lr * max((num_iterations - it) / warmdown_iters, 0.1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--num_iterations", type=int, default=80)
    parser.add_argument("--warmdown_iters", type=int, default=40)
    parser.add_argument("--learning_rate", type=float, default=3e-4)
    args = parser.parse_args()
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = (torch.arange(20000) * 7 % 31 + torch.randint(0, 2, (20000,))) % 32  # a learnable synthetic stream

    model = GPT().to(device)
    model = model.to(getattr(torch, args.dtype))  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, betas=(0.9, 0.95), weight_decay=0.0)
    snapshot = None
    for it in range(args.num_iterations):
        for group in optimizer.param_groups:
            group["lr"] = get_lr(it, args.num_iterations, args.warmdown_iters, args.learning_rate)
        if it == args.num_iterations - args.warmdown_iters:
            snapshot = [p.detach().clone() for p in model.parameters()]
        x, y = get_batch(data)
        loss = model(x.to(device), y.to(device))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()  # fails-here
    moved = sum((p.detach() != s).sum().item() for p, s in zip(model.parameters(), snapshot))
    total = sum(p.numel() for p in model.parameters())
    with torch.no_grad():
        x, y = get_batch(data, batch_size=64)
        print("val loss %.3f, %.0f%% of weights moved during warmdown" % (model(x.to(device), y.to(device)).item(), 100 * moved / total))
