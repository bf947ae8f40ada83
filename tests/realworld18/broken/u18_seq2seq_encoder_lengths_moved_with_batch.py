"""Seq2seq tutorial encoder with packed padded sequences: the batch helper moves every tensor of the batch, src_len included, to the training device, and Encoder.forward passes that lengths tensor to pack_padded_sequence, which requires CPU lengths
source: https://github.com/bentrevett/pytorch-seq2seq/issues/156
reported-error: RuntimeError: 'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor (pack_embedded in Encoder.forward, Tutorial 4)
outcome: cuda-only: RuntimeError: 'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor (verified on an H200 with torch 2.11.0+cu130) at line 46; on CPU: ok
root-cause: line 34
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn

PAD, SOS, EOS = 0, 1, 2


def build_vocab(sentences):
    vocab = {"<pad>": PAD, "<sos>": SOS, "<eos>": EOS}
    for s in sentences:
        for w in s.split():
            vocab.setdefault(w, len(vocab))
    return vocab


def encode_batch(sentences, vocab):
    seqs = [[SOS] + [vocab[w] for w in s.split()] + [EOS] for s in sentences]
    lengths = np.array([len(s) for s in seqs])
    order = np.argsort(-lengths)
    padded = np.zeros((len(seqs), lengths.max()), dtype=np.int64)
    for row, i in enumerate(order):
        padded[row, : lengths[i]] = seqs[i]
    return {"src": torch.from_numpy(padded).t().contiguous(), "src_len": torch.from_numpy(lengths[order])}


def to_device(batch, device):
    return {k: v.to(device) for k, v in batch.items()}  # root-cause


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb=16, hid=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hid, bidirectional=True)
        self.fc = nn.Linear(2 * hid, hid)

    def forward(self, src, src_len):
        embedded = self.embedding(src)
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, src_len)  # fails-here
        packed_outputs, hidden = self.rnn(packed_embedded)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(packed_outputs)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2], hidden[-1]), dim=1)))
        return outputs, hidden


sentences = ["a small cat sat", "the dog ran far away today", "birds sing", "we read many old books at night"]
vocab = build_vocab(sentences)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
encoder = Encoder(len(vocab)).to(device)
head = nn.Linear(32, len(vocab)).to(device)
opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-2)
for step in range(5):
    batch = to_device(encode_batch(sentences, vocab), device)
    outputs, hidden = encoder(batch["src"], batch["src_len"])
    loss = nn.functional.cross_entropy(head(hidden), batch["src"][1])
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", round(loss.item(), 4), "outputs", tuple(outputs.shape))
