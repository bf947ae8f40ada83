"""Fixed sentence-transformers#770: the collate builds the numpy float64 scores as torch.float labels
source: https://github.com/huggingface/sentence-transformers/issues/770
reported-error: RuntimeError: Found dtype Double but expected Float
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader

df = pd.DataFrame({"a": ["a man is playing", "the cat sleeps"] * 4, "b": ["a man plays", "a dog barks"] * 4,
                   "score": [4.2, 0.4] * 4})
scores = df["score"].values / 5.0


def tokenize(sentence, maxlen=6):
    ids = [sum(map(ord, w)) % 100 for w in sentence.split()][:maxlen]
    return ids + [0] * (maxlen - len(ids))


def collate(batch):
    a = torch.tensor([tokenize(s1) for s1, _, _ in batch])
    b = torch.tensor([tokenize(s2) for _, s2, _ in batch])
    labels = torch.tensor([lbl for _, _, lbl in batch], dtype=torch.float)
    return a, b, labels


encoder = nn.EmbeddingBag(100, 16)
optimizer = torch.optim.AdamW(encoder.parameters(), lr=1e-3)
loss_fct = nn.MSELoss()
examples = list(zip(df["a"], df["b"], scores))
for a, b, labels in DataLoader(examples, batch_size=4, shuffle=True, collate_fn=collate):
    optimizer.zero_grad()
    loss = loss_fct(torch.cosine_similarity(encoder(a), encoder(b)), labels)
    assert loss.dtype == torch.float32
    loss.backward()
    optimizer.step()
