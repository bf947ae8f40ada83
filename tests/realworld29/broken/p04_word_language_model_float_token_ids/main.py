"""Word-level language model (pytorch/examples word_language_model layout: main.py, data.py Corpus/Dictionary, model.py RNNModel): data.py's tokenize builds each line's ids with the legacy torch.Tensor(ids) constructor, so the corpus is float32 and the nn.Embedding encoder in model.py gets float indices
source: https://github.com/pytorch/examples/blob/6d08877a1f1e17c5b4d16ebb78dbbeeac0e70750/word_language_model/data.py
reported-error: (the repository file builds ids with torch.tensor(ids).type(torch.int64); the float variant fails with RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at model.py:21
root-cause: data.py:42
expect: DG005
"""
import os
import tempfile

import torch
import torch.nn as nn

import data
import model as model_lib

torch.manual_seed(1111)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

root = tempfile.mkdtemp()
words = "the cat sat on the mat while a dog ran in the park and the bird sang".split()
for split, n in (("train.txt", 60), ("valid.txt", 10), ("test.txt", 10)):
    with open(os.path.join(root, split), "w") as f:
        for i in range(n):
            f.write(" ".join(words[(i + k) % len(words)] for k in range(8)) + "\n")

corpus = data.Corpus(root)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data.to(device)


def get_batch(source, i, bptt=10):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


train_data = batchify(corpus.train, 4)
ntokens = len(corpus.dictionary)
model = model_lib.RNNModel("LSTM", ntokens, 32, 32, 2, 0.2).to(device)
criterion = nn.NLLLoss()
lr = 20.0
model.train()
hidden = model.init_hidden(4)
for batch, i in enumerate(range(0, train_data.size(0) - 1, 10)):
    data_, targets = get_batch(train_data, i)
    hidden = tuple(h.detach() for h in hidden)
    model.zero_grad()
    output, hidden = model(data_, hidden)
    loss = criterion(output, targets.long())
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    print(f"batch {batch} loss {loss.item():.3f}")
