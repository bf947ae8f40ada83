"""Land-cover classification of satellite tiles with a small patch transformer trained fully in bfloat16 (model.to(torch.bfloat16), no FP32 master copy) with torch.optim.AdamW at lr=1e-4: every update smaller than ~1/256 of a weight's magnitude is rounded away when written back to the bf16 parameter
source: https://github.com/pytorch/ao/pull/1124
reported-error: BF16 only has around 3 decimal precision; if a weight update is smaller than 1e-3 of the weight magnitude there is no change to the weight (nearest rounding), highly problematic for full BF16 training without an FP32 copy (stochastic rounding option added)
outcome: ok (silent: after 30 AdamW steps applied at line 45 only a minority of the bfloat16 weights changed at all, printed as "weights changed: N/M" with N < M/2 (all of them change with --dtype fp32))
root-cause: line 36
expect: DG013
"""
import argparse

import torch
import torch.nn as nn

DTYPES = {"bf16": torch.bfloat16, "fp32": torch.float32}


class PatchTransformer(nn.Module):
    def __init__(self, bands=4, patch=8, dim=64, n_classes=6):
        super().__init__()
        self.embed = nn.Conv2d(bands, dim, patch, stride=patch)
        layer = nn.TransformerEncoderLayer(dim, 4, 2 * dim, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        tokens = self.embed(x).flatten(2).transpose(1, 2)
        return self.head(self.encoder(tokens).mean(1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dtype", default="bf16", choices=DTYPES)
    p.add_argument("--lr", type=float, default=1e-4)
    args = p.parse_args([])
    torch.manual_seed(0)
    dtype = DTYPES[args.dtype]
    model = PatchTransformer().to(dtype)  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    before = [p.detach().clone() for p in model.parameters()]
    tiles = torch.randn(32, 4, 32, 32, dtype=dtype)
    labels = torch.randint(0, 6, (32,))
    for step in range(30):
        loss = nn.functional.cross_entropy(model(tiles).float(), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(p.numel() for p in model.parameters())
    print(f"loss {loss.item():.4f}; weights changed: {changed}/{total}")


if __name__ == "__main__":
    main()
