"""Seq2seq fine-tuning whose precision option "bf16_pure" is resolved by a builder from a config dict and applied with model.to(torch.bfloat16); the AdamW optimizer then keeps and updates bfloat16 weights directly (no float32 master copy), so with a fine-tuning learning rate and gradient accumulation most weights never change
source: https://github.com/eole-nlp/eole/pull/133
reported-error: pure bf16 training (model weights and optimizer in bfloat16) needs care: small updates are lost to bfloat16 rounding without fp32 master weights or Kahan summation
outcome: ok (silent: after the AdamW steps at line 52 fewer than half of the bfloat16 weights changed at all, printed as "weights changed: X/Y")
root-cause: line 32
expect: DG013
"""
import torch
import torch.nn as nn

TRAIN_CFG = {"precision": "bf16_pure", "lr": 2e-5, "accum_count": 2, "steps": 12, "model": {"vocab": 40, "dim": 64}}
PRECISIONS = {"fp32": torch.float32, "fp16_amp": torch.float32, "bf16_pure": torch.bfloat16}


class TinySeq2Seq(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.src = nn.Embedding(vocab, dim)
        self.tgt = nn.Embedding(vocab, dim)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.dec = nn.GRU(dim, dim, batch_first=True)
        self.gen = nn.Linear(dim, vocab)

    def forward(self, src, tgt_in):
        _, h = self.enc(self.src(src))
        out, _ = self.dec(self.tgt(tgt_in), h)
        return self.gen(out)


def build_model(cfg):
    model = TinySeq2Seq(**cfg["model"])
    return model.to(PRECISIONS[cfg["precision"]])  # root-cause


def batches(cfg, g, n):
    for _ in range(n):
        src = torch.randint(1, cfg["model"]["vocab"], (8, 7), generator=g)
        yield src, src.flip(1)


def train(cfg):
    torch.manual_seed(0)
    model = build_model(cfg)
    before = [p.detach().clone() for p in model.parameters()]
    optim = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    g = torch.Generator().manual_seed(0)
    for i, (src, tgt) in enumerate(batches(cfg, g, cfg["steps"] * cfg["accum_count"])):
        logits = model(src, tgt[:, :-1])
        loss = nn.functional.cross_entropy(logits.float().reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1))
        (loss / cfg["accum_count"]).backward()
        if (i + 1) % cfg["accum_count"] == 0:
            optim.step()  # fails-here
            optim.zero_grad()
    changed = sum(int((p != b).sum()) for p, b in zip(model.parameters(), before))
    total = sum(p.numel() for p in model.parameters())
    print(f"loss {loss.item():.4f} weights changed: {changed}/{total}")


if __name__ == "__main__":
    train(TRAIN_CFG)
