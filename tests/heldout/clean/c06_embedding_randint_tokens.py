"""Tiny language model: Embedding fed with torch.randint token ids (int64)."""
import torch
from torch import nn

VOCAB, DIM, CTX = 50, 16, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Embedding(CTX, DIM)
        self.mix = nn.Linear(DIM, DIM)
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        positions = torch.arange(ids.size(1), device=ids.device)
        h = self.tok(ids) + self.pos(positions)
        return self.out(torch.tanh(self.mix(h)))


def get_batch(bs=4):
    data = torch.randint(0, VOCAB, (bs, CTX + 1))
    return data[:, :-1], data[:, 1:]


model = TinyLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
for it in range(10):
    inputs, targets = get_batch()
    logits = model(inputs)
    loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print("loss", loss.item())
