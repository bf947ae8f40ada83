"""Keyword-spotting trainer: the data list parser stores keyword ids in an np.int32 array (label table loaded "to save memory"), the Dataset returns them with torch.from_numpy, and the executor's cross-entropy gets Int targets
source: https://github.com/wenet-e2e/wekws/pull/141
reported-error: RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Int' (fixed by converting target to torch.int64 for cross_entropy)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 54
root-cause: line 22
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

KEYWORDS = {"<filler>": 0, "hey_snips": 1, "hi_xiaowen": 2, "nihao_wenwen": 3}


def parse_data_list(n=96, seed=0):
    rng = np.random.default_rng(seed)
    names = list(KEYWORDS)
    keys = [f"utt{i:04d}" for i in range(n)]
    txt = [names[j] for j in rng.integers(0, len(names), n)]
    labels = np.array([KEYWORDS[t] for t in txt], dtype=np.int32)  # root-cause
    feats = rng.normal(size=(n, 50, 40)).astype(np.float32)
    return keys, feats, labels


class KWSDataset(Dataset):
    def __init__(self, feats, labels):
        self.feats, self.labels = feats, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return torch.from_numpy(self.feats[i]), torch.from_numpy(self.labels[i:i + 1])[0]


class DSCNN(nn.Module):
    def __init__(self, n_mel=40, n_classes=4):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_mel, 64, 5, padding=2), nn.ReLU(), nn.Conv1d(64, 64, 3, padding=1), nn.ReLU())
        self.out = nn.Linear(64, n_classes)

    def forward(self, x):
        h = self.conv(x.transpose(1, 2)).mean(-1)
        return self.out(h)


class Executor:
    def train_one_epoch(self, model, optimizer, loader):
        model.train()
        for feats, target in loader:
            logits = model(feats)
            loss = F.cross_entropy(logits, target)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return loss.item()


keys, feats, labels = parse_data_list()
loader = DataLoader(KWSDataset(feats, labels), batch_size=16, shuffle=True)
model = DSCNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    print("epoch", epoch, "loss", round(Executor().train_one_epoch(model, optimizer, loader), 4))
