import torch
import torch.nn as nn

TEXT = "the quick brown fox jumps over the lazy dog " * 8
vocab = sorted(set(TEXT))
stoi = {ch: i for i, ch in enumerate(vocab)}


class CharLM(nn.Module):
    def __init__(self, vocab_size, emb=16, hidden=32):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, emb)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab_size)

    def forward(self, idx):
        h, _ = self.rnn(self.emb(idx))
        return self.out(h)


def batches(seq_len=20, batch_size=8):
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)
    starts = torch.randint(0, len(data) - seq_len - 1, (batch_size,))
    x = torch.stack([data[s : s + seq_len] for s in starts])
    y = torch.stack([data[s + 1 : s + seq_len + 1] for s in starts])
    return x, y


model = CharLM(len(vocab))
optim = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(10):
    x, y = batches()
    logits = model(x)
    loss = nn.functional.cross_entropy(logits.reshape(-1, len(vocab)), y.reshape(-1))
    optim.zero_grad()
    loss.backward()
    optim.step()
