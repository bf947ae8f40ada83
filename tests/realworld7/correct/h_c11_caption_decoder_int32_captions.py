"""Caption decoder whose padded caption matrix is an np.zeros(..., dtype=np.int32) array: Embedding accepts int32 indices, and the loss targets are made .long()
source: https://github.com/sksq96/pytorch-summary/issues/64
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
from torch import nn

WORD_MAP = {"<pad>": 0, "<start>": 1, "<end>": 2, "a": 3, "dog": 4, "runs": 5, "cat": 6, "sits": 7}
captions = ["a dog runs", "a cat sits", "a dog sits"]
caps = np.zeros((len(captions), 6), dtype=np.int32)
for i, c in enumerate(captions):
    ids = [1] + [WORD_MAP[w] for w in c.split()] + [2]
    caps[i, :len(ids)] = ids
encoded_captions = torch.from_numpy(caps)


class Decoder(nn.Module):
    def __init__(self, vocab=len(WORD_MAP), dim=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.fc = nn.Linear(dim, vocab)

    def forward(self, caps):
        out, _ = self.rnn(self.embedding(caps))
        return self.fc(out)


decoder = Decoder()
optimizer = torch.optim.Adam(decoder.parameters(), lr=4e-4)
criterion = nn.CrossEntropyLoss(ignore_index=0)
for step in range(3):
    scores = decoder(encoded_captions[:, :-1])
    loss = criterion(scores.reshape(-1, scores.size(-1)), encoded_captions[:, 1:].reshape(-1).long())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, round(loss.item(), 4))
