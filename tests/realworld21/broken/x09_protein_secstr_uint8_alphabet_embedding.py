"""Protein secondary-structure tagger on top of a sequence embedding (bepler-style eval_secstr): the Uniprot21-like alphabet encodes amino-acid strings into uint8 arrays, the collate pads them with NumPy and the embedding layer receives a ByteTensor of residue ids
source: https://github.com/tbepler/protein-sequence-embedding-iclr2019/issues/20
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.IntTensor instead (while checking arguments for embedding) (eval_secstr.py; fix: x = x.long() before model(x))
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.ByteTensor instead (while checking arguments for embedding) at line 46
root-cause: line 18
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


# ---- src/alphabets.py
class Uniprot21:
    chars = b"ARNDCQEGHILKMFPSTWYVX"

    def __init__(self):
        self.encoding = np.full(256, 20, dtype=np.uint8)  # root-cause
        for i, c in enumerate(self.chars):
            self.encoding[c] = i

    def encode(self, seq):
        return self.encoding[np.frombuffer(seq, dtype=np.uint8)]


# ---- src/utils.py
def pad_batch(seqs, labels, pad=20):
    n = max(len(s) for s in seqs)
    x = np.full((len(seqs), n), pad, dtype=seqs[0].dtype)
    y = np.full((len(seqs), n), -100, dtype=np.int64)
    for i, (s, lab) in enumerate(zip(seqs, labels)):
        x[i, :len(s)] = s
        y[i, :len(lab)] = lab
    return torch.from_numpy(x), torch.from_numpy(y)


# ---- eval_secstr.py
class SecStrTagger(nn.Module):
    def __init__(self, n_tokens=21, dim=32, n_states=3):
        super().__init__()
        self.embed = nn.Embedding(n_tokens, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, n_states)

    def forward(self, x):
        h, _ = self.lstm(self.embed(x))  # fails-here
        return self.out(h)


def random_proteins(n=24, seed=0):
    rng = np.random.default_rng(seed)
    letters = np.frombuffer(Uniprot21.chars[:20], dtype=np.uint8)
    seqs = [rng.choice(letters, size=rng.integers(20, 40)).tobytes() for _ in range(n)]
    return seqs, [rng.integers(0, 3, size=len(s)) for s in seqs]


if __name__ == "__main__":
    torch.manual_seed(0)
    alphabet = Uniprot21()
    seqs, labels = random_proteins()
    encoded = [alphabet.encode(s) for s in seqs]
    model = SecStrTagger()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for i in range(0, len(encoded), 8):
            x, y = pad_batch(encoded[i:i + 8], labels[i:i + 8])
            potentials = model(x)
            loss = nn.functional.cross_entropy(potentials.flatten(0, 1), y.flatten())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
