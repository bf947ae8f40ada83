"""Intent classifier whose preprocessed corpus is a NumPy structured (record) array; the "ids" field is declared as "f4" next to an int64 "label" field, so the padded token ids reach nn.Embedding as a FloatTensor
source: https://runebook.dev/ru/docs/pytorch/generated/torch.nn.functional.embedding
reported-error: the embedding lookup expects LongTensor indices; passing float indices makes the code crash (Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 35
root-cause: line 13
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn

MAX_LEN = 6
RECORD = np.dtype([("ids", "f4", (MAX_LEN,)), ("length", "i4"), ("label", "i8")])  # root-cause
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
    def __init__(self, n_vocab, dim=16, n_intents=2):
        super().__init__()
        self.emb = nn.Embedding(n_vocab, dim, padding_idx=0)
        self.head = nn.Linear(dim, n_intents)

    def forward(self, ids, lengths):
        e = self.emb(ids)  # fails-here
        pooled = e.sum(1) / lengths.unsqueeze(1).float()
        return self.head(pooled)


def batches(recs, bs=4):
    for s in range(0, len(recs), bs):
        chunk = recs[s:s + bs]
        yield torch.from_numpy(chunk["ids"].copy()), torch.from_numpy(chunk["length"].copy()), torch.from_numpy(chunk["label"].copy())


def main():
    recs, vocab = encode(UTTERANCES)
    model = MeanPoolIntent(len(vocab))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    for ids, lengths, labels in batches(recs):
        loss = nn.functional.cross_entropy(model(ids, lengths), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
