"""Small language-model trainer with weight_dtype=bfloat16: the whole model is cast to bf16 and torch.optim.AdamW updates bf16 weights
source: https://github.com/pytorch/pytorch/issues/120376
reported-error: silent (loss curves much worse than float32)
outcome: ok (silent: only about 18-21% of the bfloat16 weights change per AdamW step at lr=1e-4, vs 100% with --dtype float32; loss 3.448 after 31 steps vs 3.418 in float32)
root-cause: line 42 (alt 31)
expect: DG013
"""
import argparse

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=32, embed=64, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, embed)
        self.blocks = nn.Sequential(*[nn.Sequential(nn.Linear(embed, embed), nn.GELU()) for _ in range(layers)])
        self.head = nn.Linear(embed, vocab)

    def forward(self, x):
        return self.head(self.blocks(self.emb(x)))


class Trainer:
    def __init__(self, args):
        self.args = args
        self.args.is_cuda = torch.cuda.is_available()
        weight_dtype = torch.bfloat16 if args.dtype == "bfloat16" else torch.float32
        self.model = TinyLM(embed=args.embed, layers=args.layers)
        self.model = self.model.to(dtype=weight_dtype)  # root-cause-alt
        if self.args.is_cuda:
            self.model = self.model.cuda()
        self.ce = nn.CrossEntropyLoss()
        self.callbacks = [self.log_callback]

    def log_callback(self, step, loss, changed):
        if step % 10 == 0:
            print(f"step {step} loss {loss:.4f} params changed by step: {changed:.1%}")

    def train(self):
        optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.args.lr, weight_decay=0.0)  # root-cause
        g = torch.Generator().manual_seed(0)
        for step in range(self.args.steps):
            x = torch.randint(0, 32, (16, 24), generator=g)
            y = (x + 1) % 32
            if self.args.is_cuda:
                x, y = x.cuda(), y.cuda()
            logits = self.model(x)
            loss = self.ce(logits.view(-1, logits.size(-1)).float(), y.view(-1))
            optimizer.zero_grad()
            loss.backward()
            before = [p.detach().clone() for p in self.model.parameters()]
            optimizer.step()
            changed = sum((p != b).sum().item() for p, b in zip(self.model.parameters(), before))
            total = sum(p.numel() for p in self.model.parameters())
            for cb in self.callbacks:
                cb(step, loss.item(), changed / total)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--dtype", default="bfloat16")
    parser.add_argument("--embed", type=int, default=64)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--steps", type=int, default=31)
    Trainer(parser.parse_args([])).train()
