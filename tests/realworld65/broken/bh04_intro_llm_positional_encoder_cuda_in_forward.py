"""A Transformer encoder from the intro-llm book (section 2.1.1 PositionalEncoder, re-typed) trained on a machine without a GPU: the script moves the model to "cuda if available else cpu", but PositionalEncoder.forward adds the positional table with Variable(self.pe[:, :seq_len], requires_grad=False).cuda(), so the first forward pass on the CPU asks for CUDA
source: https://github.com/intro-llm/intro-llm.github.io/issues/34
reported-error: "第20行最好不要强行加上.cuda()，可更改为: x = x + self.pe[:, :x.size(1)].requires_grad(False)" (class PositionalEncoder: x = x + Variable(self.pe[:,:seq_len], requires_grad=False).cuda() forces the positional table onto CUDA even though pe is a registered buffer that moves with the model; on a CPU-only machine: AssertionError: Torch not compiled with CUDA enabled)
outcome: AssertionError: Torch not compiled with CUDA enabled at line 48
root-cause: line 48
expect: DG009
"""
import copy
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
rng = np.random.default_rng(0)


class Embedder(nn.Module):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d_model)

    def forward(self, x):
        return self.embed(x)


class PositionalEncoder(nn.Module):
    def __init__(self, d_model, max_seq_len=80):
        super().__init__()
        self.d_model = d_model
        # 根据 pos 和 i 创建一个常量 PE 矩阵
        pe = torch.zeros(max_seq_len, d_model)
        for pos in range(max_seq_len):
            for i in range(0, d_model, 2):
                pe[pos, i] = math.sin(pos / (10000 ** ((2 * i) / d_model)))
                pe[pos, i + 1] = math.cos(pos / (10000 ** ((2 * (i + 1)) / d_model)))
        pe = pe.unsqueeze(0)
        self.register_buffer('pe', pe)

    def forward(self, x):
        # 使得单词嵌入表示相对大一些
        x = x * math.sqrt(self.d_model)
        # 增加位置常量到单词嵌入表示中
        seq_len = x.size(1)
        x = x + Variable(self.pe[:, :seq_len], requires_grad=False).cuda()  # root-cause  # fails-here
        return x


def attention(q, k, v, d_k, mask=None, dropout=None):
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask.unsqueeze(1) == 0, -1e9)
    scores = F.softmax(scores, dim=-1)
    if dropout is not None:
        scores = dropout(scores)
    return torch.matmul(scores, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, heads, d_model, dropout=0.1):
        super().__init__()
        self.d_model, self.d_k, self.h = d_model, d_model // heads, heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        bs = q.size(0)
        k = self.k_linear(k).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        q = self.q_linear(q).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        v = self.v_linear(v).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        scores = attention(q, k, v, self.d_k, mask, self.dropout)
        concat = scores.transpose(1, 2).contiguous().view(bs, -1, self.d_model)
        return self.out(concat)


class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff=128, dropout=0.1):
        super().__init__()
        self.linear_1 = nn.Linear(d_model, d_ff)
        self.dropout = nn.Dropout(dropout)
        self.linear_2 = nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.linear_2(self.dropout(F.relu(self.linear_1(x))))


class NormLayer(nn.Module):
    def __init__(self, d_model, eps=1e-6):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))
        self.eps = eps

    def forward(self, x):
        return self.alpha * (x - x.mean(dim=-1, keepdim=True)) / (x.std(dim=-1, keepdim=True) + self.eps) + self.bias


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads, dropout=0.1):
        super().__init__()
        self.norm_1, self.norm_2 = NormLayer(d_model), NormLayer(d_model)
        self.attn = MultiHeadAttention(heads, d_model, dropout=dropout)
        self.ff = FeedForward(d_model, dropout=dropout)
        self.dropout_1, self.dropout_2 = nn.Dropout(dropout), nn.Dropout(dropout)

    def forward(self, x, mask):
        x2 = self.norm_1(x)
        x = x + self.dropout_1(self.attn(x2, x2, x2, mask))
        x2 = self.norm_2(x)
        return x + self.dropout_2(self.ff(x2))


class Encoder(nn.Module):
    def __init__(self, vocab_size, d_model, N, heads, dropout):
        super().__init__()
        self.embed = Embedder(vocab_size, d_model)
        self.pe = PositionalEncoder(d_model)
        self.layers = nn.ModuleList([copy.deepcopy(EncoderLayer(d_model, heads, dropout)) for _ in range(N)])
        self.norm = NormLayer(d_model)

    def forward(self, src, mask):
        x = self.pe(self.embed(src))
        for layer in self.layers:
            x = layer(x, mask)
        return self.norm(x)


class SequenceClassifier(nn.Module):
    def __init__(self, vocab_size, d_model=32, N=2, heads=4, dropout=0.1, n_classes=2):
        super().__init__()
        self.encoder = Encoder(vocab_size, d_model, N, heads, dropout)
        self.head = nn.Linear(d_model, n_classes)

    def forward(self, src, src_mask):
        h = self.encoder(src, src_mask)
        m = src_mask.squeeze(1).unsqueeze(-1).float()
        return self.head((h * m).sum(1) / m.sum(1))


# toy task: does token 7 appear before token 9 in the (padded) sequence?
PAD, VOCAB = 0, 20
seqs, labels = [], []
for _ in range(512):
    n = int(rng.integers(6, 20))
    s = rng.integers(1, VOCAB, n)
    seqs.append(np.pad(s, (0, 20 - n), constant_values=PAD))
    pos7, pos9 = np.where(s == 7)[0], np.where(s == 9)[0]
    labels.append(int(len(pos7) > 0 and (len(pos9) == 0 or pos7[0] < pos9[0])))
src_all = torch.from_numpy(np.stack(seqs)).long()
y_all = torch.tensor(labels)

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = SequenceClassifier(VOCAB).to(device)
optim = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)

for epoch in range(4):
    perm = torch.randperm(len(src_all))
    total = 0.0
    for i in range(0, len(perm), 64):
        idx = perm[i:i + 64]
        src, y = src_all[idx].to(device), y_all[idx].to(device)
        src_mask = (src != PAD).unsqueeze(-2)
        loss = F.cross_entropy(model(src, src_mask), y)
        optim.zero_grad()
        loss.backward()
        optim.step()
        total += loss.item() * len(idx)
    print(f"epoch {epoch}: loss {total / len(src_all):.4f}")
