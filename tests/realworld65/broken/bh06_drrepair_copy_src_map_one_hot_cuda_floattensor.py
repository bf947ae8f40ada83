"""DrRepair-style line repairer with a copy mechanism (re-typed) trained on a MacBook: every tensor goes through try_gpu, which falls back to the CPU when CUDA is missing, but make_one_hot builds the source-vocabulary map for the copy generator with torch.cuda.FloatTensor(N, C).zero_(), so the first batch fails on a machine without CUDA
source: https://github.com/michiyasunaga/DrRepair/issues/7
reported-error: "TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. Since Macbooks do not have NVIDIA GPUs, CUDA won't work on them" (fix that let it run: make_one_hot: one_hot = torch.FloatTensor(labels.size(0), C).zero_() instead of torch.cuda.FloatTensor)
outcome: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. at line 36
root-cause: line 36
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)
rng = np.random.default_rng(0)
PAD_INDEX, UNK_INDEX = 0, 1
_GPUS_EXIST = True


def try_gpu(x):
    """Try to put x on a GPU."""
    global _GPUS_EXIST
    if _GPUS_EXIST:
        try:
            return x.cuda()
        except (AssertionError, RuntimeError):
            print('No GPUs detected. Sticking with CPUs.')
            _GPUS_EXIST = False
    return x


def make_one_hot(labels, C):
    '''Converts an integer label Variable (N,) to a one-hot Variable (N, C).'''
    labels = labels.unsqueeze(1)
    one_hot = torch.cuda.FloatTensor(labels.size(0), C).zero_()  # root-cause  # fails-here
    target = one_hot.scatter_(1, labels.data, 1)
    return Variable(target)


class Example:
    """One erroneous code line and its fix; src_map / align index the per-example source vocabulary."""

    def __init__(self, src, tgt, vocab):
        self.src_ids = [vocab.get(t, UNK_INDEX) for t in src]
        self.tgt_ids = [vocab.get(t, UNK_INDEX) for t in tgt]
        self.src_vocab = ["<unk>"] + sorted(set(src))
        self.src_map = [self.src_vocab.index(t) for t in src]
        self.align = [self.src_vocab.index(t) if t in self.src_vocab else 0 for t in tgt]


class CopyRepairer(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=PAD_INDEX)
        self.encoder = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.decoder = nn.LSTMCell(dim, 2 * dim)
        self.attn = nn.Linear(2 * dim, 2 * dim, bias=False)
        self.gen = nn.Linear(4 * dim, vocab_size)
        self.p_copy = nn.Linear(4 * dim, 1)

    def prep_src_map_one_line(self, batch, true_slen):
        src_vocabs = [ex.src_vocab for ex in batch]
        _src_map = try_gpu(pad_sequence([torch.tensor(ex.src_map) for ex in batch]))  # (_slen, batch)
        _slen, _b_size = _src_map.size()
        max_id = torch.max(_src_map)
        _src_map = make_one_hot(_src_map.view(-1), max_id + 1).view(_slen, _b_size, max_id + 1)
        src_map = try_gpu(torch.zeros((true_slen, _b_size, max_id + 1)).fill_(PAD_INDEX))
        src_map[:_slen] = _src_map
        return src_vocabs, Variable(src_map)

    def forward(self, batch):
        src = try_gpu(pad_sequence([torch.tensor(ex.src_ids) for ex in batch], batch_first=True))
        tgt = try_gpu(pad_sequence([torch.tensor(ex.tgt_ids) for ex in batch], batch_first=True))
        align = try_gpu(pad_sequence([torch.tensor(ex.align) for ex in batch], batch_first=True))
        enc, _ = self.encoder(self.embed(src))  # (batch, slen, 2*dim)
        _, src_map = self.prep_src_map_one_line(batch, src.size(1))  # (slen, batch, svocab)
        h = enc.mean(1)
        c = torch.zeros_like(h)
        prev = self.embed(torch.full_like(tgt[:, 0], PAD_INDEX))
        loss, n_tok = 0.0, 0
        for t in range(tgt.size(1)):
            h, c = self.decoder(prev, (h, c))
            scores = torch.bmm(enc, self.attn(h).unsqueeze(2)).squeeze(2).masked_fill(src == PAD_INDEX, -1e9)
            attn = F.softmax(scores, dim=1)
            ctx_h = torch.cat([h, torch.bmm(attn.unsqueeze(1), enc).squeeze(1)], dim=1)
            p_copy = torch.sigmoid(self.p_copy(ctx_h))
            gen_prob = F.softmax(self.gen(ctx_h), dim=1) * (1 - p_copy)
            copy_prob = torch.bmm((attn * p_copy).unsqueeze(1), src_map.transpose(0, 1)).squeeze(1)
            prob = gen_prob.gather(1, tgt[:, t:t + 1]).squeeze(1)
            prob = prob + copy_prob.gather(1, align[:, t:t + 1]).squeeze(1) * (align[:, t] != 0)
            mask = tgt[:, t] != PAD_INDEX
            loss = loss - (torch.log(prob + 1e-12) * mask).sum()
            n_tok += int(mask.sum())
            prev = self.embed(tgt[:, t])
        return loss / n_tok


# synthetic DeepFix-style pairs: a line with a missing ';' or a misspelled identifier, and its fix
idents = ["i", "n", "sum", "arr", "count", "x", "y", "total", "max_val", "tmp"]
pairs = []
for _ in range(120):
    a, b = rng.choice(idents, 2, replace=False)
    line = [a, "=", a, "+", b, ";"]
    if rng.random() < 0.5:
        pairs.append((line[:-1], line))
    else:
        broken = list(line)
        broken[2] = broken[2] + "_"
        pairs.append((broken, line))
tokens = sorted({t for s, g in pairs for t in s + g})
vocab = {t: i + 2 for i, t in enumerate(tokens)}
examples = [Example(s, g, vocab) for s, g in pairs]

model = try_gpu(CopyRepairer(len(vocab) + 2))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    perm = rng.permutation(len(examples))
    for i in range(0, len(perm), 16):
        batch = [examples[j] for j in perm[i:i + 16]]
        loss = model(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: token nll {loss.item():.4f}")
