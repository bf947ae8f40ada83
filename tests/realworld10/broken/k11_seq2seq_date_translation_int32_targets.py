"""Seq2seq date-format translator from a tutorial repo: the vocabulary indices are stored as np.int32 arrays by the data helper, a generator yields padded batches as torch.from_numpy views, and the decoder's cross-entropy receives int32 targets
source: https://github.com/MorvanZhou/NLP-Tutorials/pull/28
reported-error: RuntimeError: expected scalar type Long but found Int
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 49
root-cause: line 24
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS = 0, 1, 2


class DateData:
    def __init__(self, n=200, seed=1):
        rng = np.random.default_rng(seed)
        dates = [(rng.integers(1974, 2034), rng.integers(1, 13), rng.integers(1, 29)) for _ in range(n)]
        self.vocab = {c: i + 3 for i, c in enumerate("0123456789-/")}
        src = [f"{y % 100:02d}-{m:02d}-{d:02d}" for y, m, d in dates]
        tgt = [f"{d:02d}/{m:02d}/{y}" for y, m, d in dates]
        self.x = np.array([[self.vocab[c] for c in s] for s in src], dtype=np.int32)
        self.y = np.array([[BOS] + [self.vocab[c] for c in t] + [EOS] for t in tgt], dtype=np.int32)  # root-cause

    def batches(self, batch_size):
        idx = np.random.default_rng(0).permutation(len(self.x))
        for start in range(0, len(idx), batch_size):
            sel = idx[start : start + batch_size]
            yield torch.from_numpy(self.x[sel]), torch.from_numpy(self.y[sel])


class Seq2Seq(nn.Module):
    def __init__(self, vocab_size=15, emb=16, hidden=32):
        super().__init__()
        self.enc_embed = nn.Embedding(vocab_size, emb)
        self.dec_embed = nn.Embedding(vocab_size, emb)
        self.encoder = nn.GRU(emb, hidden, batch_first=True)
        self.decoder = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, x, y_in):
        _, h = self.encoder(self.enc_embed(x))
        o, _ = self.decoder(self.dec_embed(y_in), h)
        return self.out(o)

    def step(self, x, y, opt):
        logits = self(x, y[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y[:, 1:].reshape(-1), ignore_index=PAD)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.item()


data = DateData()
model = Seq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(2):
    for bx, by in data.batches(32):
        loss = model.step(bx, by, opt)
    print(f"epoch {epoch}: loss {loss:.3f}")
