"""Sentiment RNN (Udacity-style) whose pre-tokenised, padded reviews are read with np.genfromtxt from a CSV of token ids; genfromtxt returns float64, and the ids reach nn.Embedding as a DoubleTensor
source: https://github.com/udacity/deep-learning-v2-pytorch/pull/96
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got CUDAIntTensor instead (while checking arguments for embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.DoubleTensor instead (while checking arguments for embedding) at line 40
root-cause: line 27
expect: DG005
"""
import io

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

rng = np.random.default_rng(0)
seq_len, vocab = 12, 50
rows = []
for _ in range(64):
    length = rng.integers(4, seq_len + 1)
    ids = [0] * (seq_len - length) + rng.integers(1, vocab, length).tolist()
    rows.append(",".join(map(str, ids + [int(rng.integers(0, 2))])))
TOKENS_CSV = io.StringIO("\n".join(rows))


def load_reviews(fh):
    table = np.genfromtxt(fh, delimiter=",")
    features = torch.from_numpy(table[:, :-1])  # root-cause
    labels = torch.from_numpy(table[:, -1].astype(np.float32))
    return TensorDataset(features, labels)


class SentimentRNN(nn.Module):
    def __init__(self, vocab_size, embedding_dim=16, hidden_dim=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, batch_first=True)
        self.fc = nn.Linear(hidden_dim, 1)

    def forward(self, x):
        embeds = self.embedding(x)  # fails-here
        out, _ = self.lstm(embeds)
        return self.fc(out[:, -1]).squeeze(-1)


train_loader = DataLoader(load_reviews(TOKENS_CSV), batch_size=16, shuffle=True)
net = SentimentRNN(vocab)
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
for inputs, labels in train_loader:
    output = net(inputs)
    loss = criterion(output, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", loss.item())
