"""Seq2seq encoder with packed padded sequences whose batch helper moves only the token tensor to the device and keeps src_len on the CPU, as pack_padded_sequence requires
source: https://github.com/bentrevett/pytorch-seq2seq/issues/156
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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
    return {k: (v if k == "src_len" else v.to(device)) for k, v in batch.items()}


class Encoder(nn.Module):
    def __init__(self, vocab_size, emb=16, hid=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hid, bidirectional=True)
        self.fc = nn.Linear(2 * hid, hid)

    def forward(self, src, src_len):
        embedded = self.embedding(src)
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, src_len)
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
