"""Intent classifier whose NumPy record array declares the token-id field as "i4": nn.Embedding accepts int32 indices, and the int64 "label" field feeds cross_entropy directly
source: https://runebook.dev/ru/docs/pytorch/generated/torch.nn.functional.embedding
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

MAX_LEN = 6
RECORD = np.dtype([("ids", "i4", (MAX_LEN,)), ("length", "i4"), ("label", "i8")])
UTTERANCES = [("play some jazz", 0), ("turn the lights off", 1), ("play the next song", 0), ("dim the lights", 1)] * 5


def encode(utterances):
    vocab = {"<pad>": 0}
    recs = np.zeros(len(utterances), dtype=RECORD)
    for i, (text, label) in enumerate(utterances):
        toks = [vocab.setdefault(w, len(vocab)) for w in text.split()][:MAX_LEN]
        recs[i]["ids"][: len(toks)] = toks
        recs[i]["length"] = len(toks)
        recs[i]["label"] = label
    return recs, vocab


class MeanPoolIntent(nn.Module):
    def __init__(self, n_vocab, dim=16):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, dim, padding_idx=0)
        self.head = nn.Linear(dim, 2)

    def forward(self, ids, lengths):
        return self.head(self.emb(ids).sum(1) / lengths.unsqueeze(1).float())


if __name__ == "__main__":
    recs, vocab = encode(UTTERANCES)
    model = MeanPoolIntent(len(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for s in range(0, len(recs), 4):
        chunk = recs[s:s + 4]
        ids, lengths, labels = (torch.from_numpy(chunk[k].copy()) for k in ("ids", "length", "label"))
        loss = nn.functional.cross_entropy(model(ids, lengths), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f}")
