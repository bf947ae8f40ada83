"""Keyphrase generator evaluation: the batch collator pads the target token ids into an np.zeros((B, T)) matrix (float64), and the per-token NLLLoss in evaluate() receives Double class indices
source: https://github.com/kenchan0226/keyphrase-generation-rl/issues/24
reported-error: RuntimeError: expected scalar type Long but found Float (running predict.py)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Double at line 41
root-cause: line 16
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn


def collate(samples, pad_id=0):
    max_len = max(len(trg) for _, trg in samples)
    src = torch.stack([torch.as_tensor(s) for s, _ in samples])
    trg = np.zeros((len(samples), max_len))  # root-cause
    for i, (_, t) in enumerate(samples):
        trg[i, :len(t)] = t
    return src, torch.from_numpy(trg)


class Seq2SeqLite(nn.Module):
    def __init__(self, vocab=50, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src, trg_len):
        _, h = self.rnn(self.emb(src))
        dec_in = h[-1].unsqueeze(1).repeat(1, trg_len, 1)
        return torch.log_softmax(self.out(dec_in), dim=-1)


def evaluate(model, batches, pad_id=0):
    crit = nn.NLLLoss(ignore_index=pad_id)
    total = 0.0
    with torch.no_grad():
        for src, trg in batches:
            logp = model(src, trg.shape[1])
            total += crit(logp.reshape(-1, logp.shape[-1]), trg.reshape(-1)).item()  # fails-here
    return total / len(batches)


rng = np.random.default_rng(0)
samples = [(rng.integers(1, 50, 12), rng.integers(1, 50, rng.integers(2, 6))) for _ in range(16)]
batches = [collate(samples[i:i + 4]) for i in range(0, 16, 4)]
print("valid nll", evaluate(Seq2SeqLite(), batches))
