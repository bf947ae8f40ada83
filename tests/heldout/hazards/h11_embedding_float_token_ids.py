"""Bag-of-embeddings text classifier. Token ids are stored in a preallocated NumPy
buffer (np.zeros -> float64) and padded with 0."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

VOCAB = {w: i + 1 for i, w in enumerate("the a cat dog sat ran on mat fast slow".split())}


class Sentences(Dataset):
    def __init__(self, texts, labels, max_len=8):
        self.ids = np.zeros((len(texts), max_len))  # expect: DG005 (the buffer's dtype is where the ids' dtype is decided)
        for row, text in enumerate(texts):
            toks = [VOCAB.get(w, 0) for w in text.split()][:max_len]
            self.ids[row, : len(toks)] = toks
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return torch.tensor(self.ids[i]), torch.tensor(self.labels[i])


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab_size=len(VOCAB) + 1, dim=16, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.out = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.out(self.emb(ids).mean(1))


texts = ["the cat sat on the mat", "a dog ran fast", "the dog sat", "a cat ran slow"] * 8
labels = [0, 1, 0, 1] * 8
loader = DataLoader(Sentences(texts, labels), batch_size=8, shuffle=True)
model = BagOfEmbeddings()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)

for epoch in range(2):
    total = 0.0
    for ids, y in loader:
        logits = model(ids)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print("epoch", epoch, total)
