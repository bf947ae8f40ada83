"""Small-LM full SFT script (minimind train_full_sft.py layout) that builds AdamW with fused=('cuda' in args.device): the fused kernel is used on GPUs and the default implementation on the CPU, foreach is left unset, and the bf16 autocast of the forward only runs when a CUDA device is used
source: https://github.com/jingyaogong/minimind/pull/843
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
from contextlib import nullcontext

import torch
import torch.nn as nn
import torch.nn.functional as F


class MiniMindLM(nn.Module):
    def __init__(self, vocab=128, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        return self.lm_head(h + self.block(h))


def train_epoch(model, optimizer, ctx, args):
    for step in range(args.steps):
        ids = torch.randint(0, 128, (args.batch_size, 33), device=args.device)
        with ctx:
            logits = model(ids[:, :-1])
            loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:0" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--learning_rate", type=float, default=5e-4)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--grad_clip", type=float, default=1.0)
    args = parser.parse_args([])
    torch.manual_seed(0)
    device_type = "cuda" if "cuda" in args.device else "cpu"
    ctx = nullcontext() if device_type == "cpu" else torch.autocast(device_type, dtype=torch.bfloat16)
    model = MiniMindLM().to(args.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, fused=("cuda" in args.device))
    print("loss", round(train_epoch(model, optimizer, ctx, args), 4))
