"""Sentiment LSTM whose train() moves text and labels to a device chosen once in a config object but deliberately keeps text_lengths on the CPU for pack_padded_sequence, as the documentation requires
source: https://github.com/bentrevett/pytorch-sentiment-analysis/issues/93
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
from types import SimpleNamespace

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader


class RNN(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.rnn = nn.LSTM(embedding_dim, hidden_dim, bidirectional=True)
        self.fc = nn.Linear(hidden_dim * 2, 1)

    def forward(self, text, text_lengths):
        packed = pack_padded_sequence(self.embedding(text), text_lengths, enforce_sorted=False)
        _, (hidden, _) = self.rnn(packed)
        return self.fc(torch.cat((hidden[-2], hidden[-1]), dim=1)).squeeze(1)


def collate(batch):
    texts = [t for t, _ in batch]
    return pad_sequence(texts), torch.tensor([len(t) for t in texts]), torch.stack([y for _, y in batch])


def train(model, iterator, optimizer, criterion, cfg):
    for text, text_lengths, label in iterator:
        text, label = text.to(cfg.device), label.to(cfg.device)
        predictions = model(text, text_lengths.cpu())
        loss = criterion(predictions, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


torch.manual_seed(0)
cfg = SimpleNamespace(device=torch.device("cuda" if torch.cuda.is_available() else "cpu"))
data = [(torch.randint(1, 100, (int(n),)), torch.tensor(float(n % 2))) for n in torch.randint(3, 15, (40,))]
model = RNN(100, 16, 32).to(cfg.device)
optimizer = torch.optim.Adam(model.parameters())
print("loss", train(model, DataLoader(data, batch_size=8, collate_fn=collate), optimizer, nn.BCEWithLogitsLoss(), cfg))
