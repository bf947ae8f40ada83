"""Classifier with a tensor-train compressed embedding: the compression helper (like tntorch at import time) switches torch's default dtype to float64 after the model and its float32 weights exist; later feature tensors come out float64
source: https://github.com/rballester/tntorch/issues/4
reported-error: silent change of the global default dtype (torch.set_default_dtype(torch.float64) executed on import), which led to "strange behaviour" in the reporter's float32 project
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 21
root-cause: line 27
expect: DG001
"""
import numpy as np
import torch
import torch.nn as nn


class TextClassifier(nn.Module):
    def __init__(self, vocab_size=500, emb_dim=32, n_extra=4, n_classes=3):
        super().__init__()
        self.embedding = nn.EmbeddingBag(vocab_size, emb_dim)
        self.fc = nn.Linear(emb_dim + n_extra, n_classes)

    def forward(self, tokens, offsets, extra):
        h = self.embedding(tokens, offsets)
        return self.fc(torch.cat([h, extra], dim=1))  # fails-here


def tt_compress_(weight, rank=4):
    """Low-rank (tensor-train style) compression of an embedding matrix, in place."""
    # tntorch/tensor.py ran this line when the package was imported
    torch.set_default_dtype(torch.float64)  # root-cause
    u, s, v = torch.linalg.svd(weight.detach().to(torch.get_default_dtype()), full_matrices=False)
    approx = (u[:, :rank] * s[:rank]) @ v[:rank]
    weight.data.copy_(approx)  # copy_ keeps the parameter float32
    return float(s[rank:].pow(2).sum() / s.pow(2).sum())


def make_batch(rng, batch=8, vocab_size=500):
    lengths = rng.integers(3, 10, size=batch)
    tokens = torch.from_numpy(rng.integers(0, vocab_size, size=lengths.sum()))
    offsets = torch.from_numpy(np.concatenate([[0], np.cumsum(lengths)[:-1]]))
    # hand-made numeric features (document length, punctuation ratio, ...) as python floats
    extra = torch.tensor([[float(n), n / 10.0, 0.5, 1.0] for n in lengths])
    labels = torch.from_numpy(rng.integers(0, 3, size=batch))
    return tokens, offsets, extra, labels


def main():
    rng = np.random.default_rng(0)
    model = TextClassifier()
    err = tt_compress_(model.embedding.weight, rank=8)
    print("relative compression error %.3f" % err)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(5):
        tokens, offsets, extra, labels = make_batch(rng)
        loss = nn.functional.cross_entropy(model(tokens, offsets, extra), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
