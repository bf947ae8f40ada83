"""Biaffine dependency parser trained and then evaluated with SuPar (as in ah10) with Parser.save storing the hyper-parameters as a plain dict, 'args': dict(args.items()), and Parser.load rebuilding the Config from it: the torch.load(path, map_location='cpu') without weights_only= reads only tensors, dicts, lists and strings under the weights_only default
source: https://github.com/yzhangcs/parser/pull/148
reported-error: (none filed; the fixed situation of ah10, an alternative to the weights_only=False of pull request #148)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile
from collections import Counter

import numpy as np

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


# ---- supar/utils/config.py
class Config(object):
    def __init__(self, **kwargs):
        super(Config, self).__init__()
        self.update(kwargs)

    def __repr__(self):
        return "\n".join(f"{name}: {value}" for name, value in self.__dict__.items())

    def __getitem__(self, key):
        return getattr(self, key)

    def __contains__(self, key):
        return hasattr(self, key)

    def keys(self):
        return vars(self).keys()

    def items(self):
        return vars(self).items()

    def update(self, kwargs):
        for key in ("self", "cls", "__class__"):
            kwargs.pop(key, None)
        kwargs.update(kwargs.pop("kwargs", dict()))
        for name, value in kwargs.items():
            setattr(self, name, value)
        return self

    def pop(self, key, val=None):
        return self.__dict__.pop(key, val)


# ---- supar/utils/vocab.py
class Vocab(object):
    def __init__(self, counter, min_freq=1, specials=("<pad>", "<unk>")):
        self.itos = list(specials) + sorted(tok for tok, freq in counter.items() if freq >= min_freq)
        self.stoi = {tok: i for i, tok in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def __getitem__(self, tokens):
        return [self.stoi.get(tok, 1) for tok in tokens]


# ---- supar/utils/transform.py (CoNLL columns: FORM, HEAD, DEPREL)
class CoNLL(object):
    def __init__(self, words, rels):
        self.WORD = Vocab(Counter(w for sent in words for w in sent))
        self.REL = Vocab(Counter(r for sent in rels for r in sent), specials=())

    def numericalize(self, words, heads, rels):
        return [(torch.tensor([2] + self.WORD[w]), torch.tensor([0] + h), torch.tensor([0] + self.REL[r]))
                for w, h, r in zip(words, heads, rels)]


def batchify(samples, batch_size, shuffle=False):
    order = np.random.permutation(len(samples)) if shuffle else np.arange(len(samples))
    for i in range(0, len(samples), batch_size):
        chunk = [samples[j] for j in order[i:i + batch_size]]
        yield tuple(pad_sequence([s[k] for s in chunk], batch_first=True) for k in range(3))


# ---- supar/modules/affine.py, mlp.py
class MLP(nn.Module):
    def __init__(self, n_in, n_out, dropout=0.0):
        super().__init__()
        self.linear = nn.Linear(n_in, n_out)
        self.activation = nn.LeakyReLU(negative_slope=0.1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.activation(self.linear(x)))


class Biaffine(nn.Module):
    def __init__(self, n_in, n_out=1, bias_x=True, bias_y=True):
        super().__init__()
        self.n_out, self.bias_x, self.bias_y = n_out, bias_x, bias_y
        self.weight = nn.Parameter(torch.zeros(n_out, n_in + bias_x, n_in + bias_y))

    def forward(self, x, y):
        if self.bias_x:
            x = torch.cat((x, torch.ones_like(x[..., :1])), -1)
        if self.bias_y:
            y = torch.cat((y, torch.ones_like(y[..., :1])), -1)
        s = torch.einsum('bxi,oij,byj->boxy', x, self.weight, y)
        return s.squeeze(1)


# ---- supar/models/dep.py
class BiaffineDependencyModel(nn.Module):
    def __init__(self, n_words, n_rels, n_embed=50, n_lstm_hidden=64, n_lstm_layers=1, n_mlp_arc=64,
                 n_mlp_rel=32, pad_index=0, unk_index=1, **kwargs):
        super().__init__()
        self.args = Config().update(locals())
        self.word_embed = nn.Embedding(n_words, n_embed)
        self.encoder = nn.LSTM(n_embed, n_lstm_hidden, n_lstm_layers, batch_first=True, bidirectional=True)
        self.arc_mlp_d = MLP(n_lstm_hidden * 2, n_mlp_arc)
        self.arc_mlp_h = MLP(n_lstm_hidden * 2, n_mlp_arc)
        self.rel_mlp_d = MLP(n_lstm_hidden * 2, n_mlp_rel)
        self.rel_mlp_h = MLP(n_lstm_hidden * 2, n_mlp_rel)
        self.arc_attn = Biaffine(n_in=n_mlp_arc, bias_x=True, bias_y=False)
        self.rel_attn = Biaffine(n_in=n_mlp_rel, n_out=n_rels, bias_x=True, bias_y=True)
        self.criterion = nn.CrossEntropyLoss()

    def load_pretrained(self, embed=None):
        return self

    def forward(self, words):
        mask = words.ne(self.args.pad_index)
        x, _ = self.encoder(self.word_embed(words))
        arc_d, arc_h = self.arc_mlp_d(x), self.arc_mlp_h(x)
        rel_d, rel_h = self.rel_mlp_d(x), self.rel_mlp_h(x)
        s_arc = self.arc_attn(arc_d, arc_h).masked_fill_(~mask.unsqueeze(1), float('-inf'))
        s_rel = self.rel_attn(rel_d, rel_h).permute(0, 2, 3, 1)
        return s_arc, s_rel

    def loss(self, s_arc, s_rel, arcs, rels, mask):
        s_arc, arcs = s_arc[mask], arcs[mask]
        s_rel, rels = s_rel[mask], rels[mask]
        s_rel = s_rel[torch.arange(len(arcs)), arcs]
        return self.criterion(s_arc, arcs) + self.criterion(s_rel, rels)


# ---- supar/parsers/parser.py, dep.py
class BiaffineDependencyParser(object):
    NAME = 'biaffine-dependency'
    MODEL = BiaffineDependencyModel

    def __init__(self, args, model, transform):
        self.args = args
        self.model = model
        self.transform = transform

    @classmethod
    def build(cls, path, train_words, train_rels, **kwargs):
        args = Config(**locals())
        transform = CoNLL(train_words, train_rels)
        model = cls.MODEL(n_words=len(transform.WORD), n_rels=len(transform.REL), **kwargs)
        return cls(args, model, transform)

    def _train(self, loader):
        self.model.train()
        for words, arcs, rels in loader:
            self.optimizer.zero_grad()
            mask = words.ne(self.model.args.pad_index)
            mask[:, 0] = 0
            s_arc, s_rel = self.model(words)
            loss = self.model.loss(s_arc, s_rel, arcs, rels, mask)
            loss.backward()
            self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def _evaluate(self, loader):
        self.model.eval()
        correct = total = 0
        for words, arcs, rels in loader:
            mask = words.ne(self.model.args.pad_index)
            mask[:, 0] = 0
            s_arc, s_rel = self.model(words)
            correct += (s_arc.argmax(-1)[mask] == arcs[mask]).sum().item()
            total += mask.sum().item()
        return correct / total

    def train(self, train, dev, epochs=3, batch_size=16, lr=2e-3):
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr, betas=(0.9, 0.9))
        best_metric = 0.0
        for epoch in range(1, epochs + 1):
            loss = self._train(batchify(train, batch_size, shuffle=True))
            uas = self._evaluate(batchify(dev, batch_size))
            print(f"Epoch {epoch} / {epochs}: loss {loss:.4f} dev UAS {uas:.2%}")
            if uas >= best_metric:
                best_metric = uas
                self.save(self.args.path)
                print(f"{self.args.path} saved")

    def evaluate(self, data, batch_size=16):
        return self._evaluate(batchify(data, batch_size))

    @classmethod
    def load(cls, path, **kwargs):
        args = Config(**locals())
        state = torch.load(path, map_location='cpu')
        args = Config(**state['args']).update(args)
        model = cls.MODEL(**args)
        model.load_pretrained(state['pretrained']).load_state_dict(state['state_dict'], False)
        transform = state['transform_vocabs']
        return cls(args, model, transform)

    def save(self, path):
        model = self.model
        if hasattr(model, 'module'):
            model = self.model.module
        args = model.args
        state_dict = {k: v.cpu() for k, v in model.state_dict().items()}
        pretrained = state_dict.pop('pretrained.weight', None)
        state = {'name': self.NAME,
                 'args': dict(args.items()),
                 'state_dict': state_dict,
                 'pretrained': pretrained,
                 'transform_vocabs': {'words': self.transform.WORD.itos, 'rels': self.transform.REL.itos}}
        torch.save(state, path)


# ---- the user's run: python -m supar.cmds.biaffine_dep train ..., then ... evaluate -p model
def make_treebank(n_sents=160, seed=0):
    rng = np.random.default_rng(seed)
    dets, nouns = ["the", "a", "this"], ["dog", "cat", "parser", "model", "student", "tree"]
    verbs, advs = ["sees", "likes", "trains", "builds"], ["quickly", "often", "again"]
    words, heads, rels = [], [], []
    for _ in range(n_sents):
        # det1 noun1 verb det2 noun2 [adv]  (1-based heads, 0 = root)
        w = [rng.choice(dets), rng.choice(nouns), rng.choice(verbs), rng.choice(dets), rng.choice(nouns)]
        h, r = [2, 3, 0, 5, 3], ["det", "nsubj", "root", "det", "obj"]
        if rng.random() < 0.5:
            w.append(rng.choice(advs))
            h.append(3)
            r.append("advmod")
        words.append([str(x) for x in w])
        heads.append(h)
        rels.append(r)
    return words, heads, rels


def main():
    torch.manual_seed(1)
    np.random.seed(1)
    parser_ = argparse.ArgumentParser()
    parser_.add_argument("--path", "-p", default=os.path.join(tempfile.mkdtemp(), "model"))
    parser_.add_argument("--epochs", type=int, default=3)
    args = parser_.parse_args([])

    words, heads, rels = make_treebank()
    train_w, train_h, train_r = words[:120], heads[:120], rels[:120]
    dev_w, dev_h, dev_r = words[120:], heads[120:], rels[120:]

    parser = BiaffineDependencyParser.build(args.path, train_w, train_r, n_embed=32, n_lstm_hidden=32)
    train = parser.transform.numericalize(train_w, train_h, train_r)
    dev = parser.transform.numericalize(dev_w, dev_h, dev_r)
    parser.train(train, dev, epochs=args.epochs)

    # evaluate the best model saved during training
    parser = BiaffineDependencyParser.load(args.path)
    print(f"dev UAS of the saved model: {parser.evaluate(dev):.2%}")


if __name__ == "__main__":
    main()
