"""Seq2seq date translator whose data helper still stores the indices as np.int32 and whose generator yields torch.from_numpy batches: int32 indices are valid for nn.Embedding, and the loss helper converts the targets with .long() before cross-entropy
source: https://github.com/MorvanZhou/NLP-Tutorials/pull/28
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, BOS, EOS = 0, 1, 2
rng = np.random.default_rng(1)
dates = [(rng.integers(1974, 2034), rng.integers(1, 13), rng.integers(1, 29)) for _ in range(200)]
vocab = {c: i + 3 for i, c in enumerate("0123456789-/")}
x_np = np.array([[vocab[c] for c in f"{y % 100:02d}-{m:02d}-{d:02d}"] for y, m, d in dates], dtype=np.int32)
y_np = np.array([[BOS] + [vocab[c] for c in f"{d:02d}/{m:02d}/{y}"] + [EOS] for y, m, d in dates], dtype=np.int32)


def batches(batch_size):
    for start in range(0, len(x_np), batch_size):
        yield torch.from_numpy(x_np[start : start + batch_size]), torch.from_numpy(y_np[start : start + batch_size])


def seq_loss(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1).long(), ignore_index=PAD)


enc_embed, dec_embed = nn.Embedding(15, 16), nn.Embedding(15, 16)
encoder, decoder, out = nn.GRU(16, 32, batch_first=True), nn.GRU(16, 32, batch_first=True), nn.Linear(32, 15)
params = [p for m in (enc_embed, dec_embed, encoder, decoder, out) for p in m.parameters()]
opt = torch.optim.Adam(params, lr=1e-2)
for epoch in range(2):
    for bx, by in batches(32):
        _, h = encoder(enc_embed(bx))
        o, _ = decoder(dec_embed(by[:, :-1]), h)
        loss = seq_loss(out(o), by[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss {loss.item():.3f}")
