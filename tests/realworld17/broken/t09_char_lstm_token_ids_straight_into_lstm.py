"""Character-level next-char model whose encode() returns int64 token ids and whose CharLSTM feeds them (one-hot encoding step forgotten) straight into nn.LSTM, which requires the input dtype to match its float32 weights
source: https://github.com/pytorch/pytorch/pull/100100
reported-error: RuntimeError: expected scalar type Long but found Float (RNN input of type long; now: input must have the type torch.float32, got type torch.int64)
outcome: ValueError: RNN input dtype (torch.int64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.int64) at line 37
root-cause: line 36
expect: DG005
"""
import torch
import torch.nn as nn

text = "the quick brown fox jumps over the lazy dog " * 20
vocab = sorted(set(text))
stoi = {c: i for i, c in enumerate(vocab)}


def encode(s):
    return torch.tensor([stoi[c] for c in s])


def make_batches(ids, seq_len=16, batch_size=8):
    n = (len(ids) - 1) // seq_len
    xs = ids[: n * seq_len].view(n, seq_len)
    ys = ids[1: n * seq_len + 1].view(n, seq_len)
    for i in range(0, n, batch_size):
        yield xs[i:i + batch_size], ys[i:i + batch_size]


class CharLSTM(nn.Module):
    def __init__(self, vocab_size, hidden=64):
        super().__init__()
        self.vocab_size = vocab_size
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, ids):
        x = ids.unsqueeze(-1)  # root-cause
        out, _ = self.lstm(x)  # fails-here
        return self.head(out)


model = CharLSTM(len(vocab))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for xb, yb in make_batches(encode(text)):
    logits = model(xb)
    loss = nn.functional.cross_entropy(logits.reshape(-1, len(vocab)), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
