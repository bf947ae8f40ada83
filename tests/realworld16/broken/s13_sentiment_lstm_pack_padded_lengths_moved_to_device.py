"""Upgraded sentiment LSTM whose collate_fn returns (text, text_lengths); train() moves every tensor of the batch, lengths included, to the run-time device, and forward() passes the CUDA lengths to nn.utils.rnn.pack_padded_sequence
source: https://github.com/bentrevett/pytorch-sentiment-analysis/issues/93
reported-error: RuntimeError: 'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor
outcome: cuda-only: RuntimeError: 'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor (not run on a GPU here) at line 23; on CPU: ok
root-cause: line 38
expect: DG009
"""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
from torch.utils.data import DataLoader


class RNN(nn.Module):
    def __init__(self, vocab_size, embedding_dim, hidden_dim, pad_idx=0):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_idx)
        self.rnn = nn.LSTM(embedding_dim, hidden_dim, bidirectional=True)
        self.fc = nn.Linear(hidden_dim * 2, 1)

    def forward(self, text, text_lengths):
        embedded = self.embedding(text)
        packed_embedded = pack_padded_sequence(embedded, text_lengths, enforce_sorted=False)  # fails-here
        packed_output, (hidden, cell) = self.rnn(packed_embedded)
        output, _ = pad_packed_sequence(packed_output)
        return self.fc(torch.cat((hidden[-2], hidden[-1]), dim=1)).squeeze(1)


def collate(batch):
    texts = [t for t, _ in batch]
    lengths = torch.tensor([len(t) for t in texts])
    return pad_sequence(texts), lengths, torch.stack([y for _, y in batch])


def train(model, iterator, optimizer, criterion, device):
    model.train()
    for text, text_lengths, label in iterator:
        text, text_lengths, label = text.to(device), text_lengths.to(device), label.to(device)  # root-cause
        predictions = model(text, text_lengths)
        loss = criterion(predictions, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


torch.manual_seed(0)
data = [(torch.randint(1, 100, (int(n),)), torch.tensor(float(n % 2))) for n in torch.randint(3, 15, (40,))]
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = RNN(100, 16, 32).to(device)
optimizer = torch.optim.Adam(model.parameters())
criterion = nn.BCEWithLogitsLoss().to(device)
print("loss", train(model, DataLoader(data, batch_size=8, collate_fn=collate), optimizer, criterion, device))
