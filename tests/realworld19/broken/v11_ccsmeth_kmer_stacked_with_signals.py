"""Nanopore/CCS methylation caller: the feature extractor stacks the k-mer base codes together with the float IPD/PW kinetics into one float32 matrix per read window; the model slices the k-mer column back out and embeds it without converting, so nn.Embedding receives float indices
source: https://github.com/PengNi/ccsmeth/issues/57
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.IntTensor instead (while checking arguments for embedding) (models.py: kmer_embed = self.embed(kmer.int()))
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 52
root-cause: line 51
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

BASE2CODE = {"A": 0, "C": 1, "G": 2, "T": 3}


# ---- extract_features.py
def extract_windows(n_reads=40, k=21, seed=0):
    rng = np.random.default_rng(seed)
    feats, labels = [], []
    for _ in range(n_reads):
        seq = rng.choice(list("ACGT"), k)
        codes = np.array([BASE2CODE[b] for b in seq], dtype=np.float32)
        ipd = rng.gamma(2.0, 0.5, k).astype(np.float32)
        pw = rng.gamma(2.0, 0.3, k).astype(np.float32)
        feats.append(np.stack([codes, ipd, pw], axis=1))
        labels.append(int(ipd[k // 2] > 1.2))
    return np.stack(feats), np.array(labels, dtype=np.int64)


class WindowDataset(Dataset):
    def __init__(self, feats, labels):
        self.feats, self.labels = torch.from_numpy(feats), torch.from_numpy(labels)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.feats[i], self.labels[i]


# ---- models.py
class ModelAttRNN(nn.Module):
    def __init__(self, hidden=32, emb=8):
        super().__init__()
        self.embed = nn.Embedding(4, emb)
        self.rnn = nn.LSTM(emb + 2, hidden, batch_first=True, bidirectional=True)
        self.att = nn.Linear(2 * hidden, 1)
        self.fc = nn.Linear(2 * hidden, 2)

    def forward(self, window):
        kmer, kinetics = window[..., 0], window[..., 1:]  # root-cause
        kmer_embed = self.embed(kmer)  # fails-here
        out, _ = self.rnn(torch.cat([kmer_embed, kinetics], -1))
        w = torch.softmax(self.att(out), 1)
        return self.fc((w * out).sum(1))


if __name__ == "__main__":
    feats, labels = extract_windows()
    loader = DataLoader(WindowDataset(feats, labels), batch_size=8, shuffle=True)
    model = ModelAttRNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for window, y in loader:
        loss = nn.functional.cross_entropy(model(window), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("loss", loss.item())
