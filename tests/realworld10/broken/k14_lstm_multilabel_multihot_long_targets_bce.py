"""Single-label LSTM text classifier converted to multi-label as suggested on the forum: CrossEntropyLoss is swapped for BCEWithLogitsLoss and the targets become multi-hot rows, but the collate_fn still builds them the way class indices were built (F.one_hot(...).sum(), int64), so the loss fails on the first batch
source: https://discuss.pytorch.org/t/converting-single-label-classification-to-multi-label-classification/148272
reported-error: converting the LSTM classifier to multi-label needs BCEWithLogitsLoss with multi-hot float targets instead of CrossEntropyLoss with class indices
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 49
root-cause: line 39
expect: DG007
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

N_LABELS, PAD = 5, 0


class LSTM(nn.Module):
    def __init__(self, vocab_size=200, embedding_dim=16, hidden_dim=32, output_dim=N_LABELS):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=PAD)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(hidden_dim * 2, output_dim)

    def forward(self, ids, length):
        packed = nn.utils.rnn.pack_padded_sequence(self.embedding(ids), length, batch_first=True, enforce_sorted=False)
        _, (hidden, _) = self.lstm(packed)
        return self.fc(torch.cat([hidden[-1], hidden[-2]], dim=-1))


def make_samples(n=64, seed=0):
    rnd = random.Random(seed)
    return [([rnd.randrange(1, 200) for _ in range(rnd.randrange(3, 12))], rnd.sample(range(N_LABELS), rnd.randrange(1, 3))) for _ in range(n)]


def collate(batch):
    ids = nn.utils.rnn.pad_sequence([torch.tensor(t) for t, _ in batch], batch_first=True, padding_value=PAD)
    length = torch.tensor([len(t) for t, _ in batch])
    labels = torch.stack([F.one_hot(torch.tensor(lab), N_LABELS).sum(0) for _, lab in batch])  # root-cause
    return ids, length, labels


model = LSTM()
criterion = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for ids, length, labels in DataLoader(make_samples(), batch_size=16, shuffle=True, collate_fn=collate):
        prediction = model(ids, length)
        loss = criterion(prediction, labels)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
