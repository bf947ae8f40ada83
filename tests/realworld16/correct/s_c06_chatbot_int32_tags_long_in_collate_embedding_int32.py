"""Intent chatbot that keeps its tag indices as np.int32 in the dataset, converts them with .long() in a collate_fn far from the loss, and feeds int32 token ids straight into nn.Embedding (which accepts Int indices)
source: https://github.com/patrickloeber/pytorch-chatbot/issues/17
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

INTENTS = {"greeting": ["hi there", "hello friend"], "goodbye": ["bye now", "see you later"], "thanks": ["thanks a lot", "thank you"]}


def prepare():
    vocab = {w: i + 1 for i, w in enumerate(sorted({w for ps in INTENTS.values() for p in ps for w in p.split()}))}
    tags = sorted(INTENTS)
    rows = []
    for tag, patterns in INTENTS.items():
        for p in patterns:
            ids = np.zeros(4, dtype=np.int32)
            ids[:len(p.split())] = [vocab[w] for w in p.split()]
            rows.append((ids, np.int32(tags.index(tag))))
    return rows, len(vocab) + 1, len(tags)


def collate(batch):
    ids = torch.from_numpy(np.stack([b[0] for b in batch]))
    tags = torch.from_numpy(np.array([b[1] for b in batch])).long()
    return ids, tags


class IntentNet(nn.Module):
    def __init__(self, vocab, n_tags):
        super().__init__()
        self.emb = nn.Embedding(vocab, 8, padding_idx=0)
        self.fc = nn.Linear(8, n_tags)

    def forward(self, ids):
        return self.fc(self.emb(ids).mean(1))


rows, vocab, n_tags = prepare()
model = IntentNet(vocab, n_tags)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    for ids, tags in DataLoader(rows, batch_size=3, shuffle=True, collate_fn=collate):
        loss = criterion(model(ids), tags)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print("final loss", loss.item())
