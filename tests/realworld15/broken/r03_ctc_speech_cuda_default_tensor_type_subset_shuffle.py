"""Speech-command classifier whose init_backend() calls torch.set_default_tensor_type("torch.cuda.FloatTensor") when a GPU exists (as older CTC code did), then trains from a Subset of the data through DataLoader(shuffle=True); on a GPU the RandomSampler's randperm is created on cuda with the CPU generator
source: https://github.com/SeanNaren/warp-ctc/pull/5
reported-error: data type mismatch when torch.set_default_tensor_type('torch.cuda.FloatTensor') is set somewhere else
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator; not run on a GPU here) at line 43; on CPU: ok
root-cause: line 16
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Subset, TensorDataset


def init_backend():
    if torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


class KeywordNet(nn.Module):
    def __init__(self, n_mels=20, n_classes=5):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, 32, 5, padding=2)
        self.head = nn.Linear(32, n_classes)

    def forward(self, feats):
        return self.head(torch.relu(self.conv(feats)).mean(-1))


def build_loaders(feats, labels, batch_size=16):
    full = TensorDataset(feats, labels)
    order = np.random.default_rng(0).permutation(len(full))
    train_idx, val_idx = order[:96].tolist(), order[96:].tolist()
    train_loader = DataLoader(Subset(full, train_idx), batch_size=batch_size, shuffle=True)
    val_loader = DataLoader(Subset(full, val_idx), batch_size=batch_size)
    return train_loader, val_loader


def train_one_epoch(model, loader, opt, device):
    model.train()
    seen = 0
    for xb, yb in loader:  # fails-here
        loss = nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        seen += len(xb)
    return seen


device = init_backend()
feats = torch.from_numpy(np.random.default_rng(1).normal(size=(128, 20, 40)).astype(np.float32))
labels = torch.from_numpy(np.random.default_rng(2).integers(0, 5, 128))
train_loader, val_loader = build_loaders(feats, labels)
model = KeywordNet().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    print("epoch", epoch, "samples", train_one_epoch(model, train_loader, opt, device))
