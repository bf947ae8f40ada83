"""SNLI word-vector cache: torch.load of a tensor that the same script built on the CPU and saved
source: https://github.com/pytorch/examples/blob/77f55b912142e11fcfdf5b530231fb9c52f181e8/legacy/snli/train.py#L33
false-alarm: DG010 at line 67: the cache file only ever holds inputs.vocab.vectors, which torchtext's Vocab.load_vectors builds with torch.Tensor(len(self), tot_dim) on the CPU and this script saves at line 71 before moving anything to `device`; a CPU tensor loads on a CPU-only machine without map_location
"""
# Reduction: torchtext.legacy's Field/Vocab/SNLI are replaced by a tiny vocabulary whose
# load_vectors builds the vector table the way torchtext does (torch.Tensor(len(self), tot_dim)).
import os
import tempfile

import torch
import torch.nn as nn


class Vocab:
    def __init__(self, itos):
        self.itos = itos
        self.vectors = None

    def __len__(self):
        return len(self.itos)

    def load_vectors(self, dim):
        self.vectors = torch.Tensor(len(self), dim)
        for i, token in enumerate(self.itos):
            self.vectors[i] = torch.randn(dim)


class SNLIClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed = nn.Embedding(config.n_embed, config.d_embed)
        self.out = nn.Linear(config.d_embed, config.d_out)

    def forward(self, premise):
        return self.out(self.embed(premise).mean(dim=1))


class Args:
    word_vectors = 'glove.6B.300d'
    d_embed = 300
    d_out = 3
    vector_cache = os.path.join(tempfile.gettempdir(), 'snli_example_cache', 'input_vectors.pt')


def makedirs(name):
    os.makedirs(name, exist_ok=True)


args = Args()
if torch.cuda.is_available():
    device = torch.device('cuda:0')
elif torch.backends.mps.is_available():
    device = torch.device('mps')
else:
    device = torch.device('cpu')

class Field:
    def build_vocab(self, *tokens):
        self.vocab = Vocab(sorted(set(tokens)))


inputs = Field()
inputs.build_vocab('<unk>', '<pad>', 'a', 'man', 'is', 'sleeping', 'dog')

if args.word_vectors:
    if os.path.isfile(args.vector_cache):
        inputs.vocab.vectors = torch.load(args.vector_cache)
    else:
        inputs.vocab.load_vectors(args.d_embed)
        makedirs(os.path.dirname(args.vector_cache))
        torch.save(inputs.vocab.vectors, args.vector_cache)

config = args
config.n_embed = len(inputs.vocab)

model = SNLIClassifier(config)
if args.word_vectors:
    model.embed.weight.data.copy_(inputs.vocab.vectors)
    model.to(device)

criterion = nn.CrossEntropyLoss()
premise = torch.randint(0, len(inputs.vocab), (4, 5), device=device)
label = torch.randint(0, config.d_out, (4,), device=device)
loss = criterion(model(premise), label)
loss.backward()
print('loss', loss.item())
