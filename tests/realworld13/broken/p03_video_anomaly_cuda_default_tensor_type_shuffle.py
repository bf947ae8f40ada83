"""Weakly supervised video-anomaly trainer that sets torch.set_default_tensor_type('torch.cuda.FloatTensor') in setup_device() when a GPU is present, then iterates a DataLoader(shuffle=True) over snippet features; RandomSampler's randperm then runs on CUDA with a CPU generator
source: https://github.com/zhang-can/CoLA/issues/10
reported-error: RuntimeError: Expected a 'cpu' device type for generator but found 'cuda'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator; not run on a GPU here) at line 48; on CPU: ok
root-cause: line 16
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def setup_device():
    if torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


class SnippetFeatures(Dataset):
    def __init__(self, n_videos=40, n_snippets=32, dim=64, seed=0):
        rng = np.random.default_rng(seed)
        self.feats = rng.normal(size=(n_videos, n_snippets, dim)).astype(np.float32)
        self.labels = (np.arange(n_videos) % 2).astype(np.float32)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return torch.from_numpy(self.feats[i]), torch.tensor(self.labels[i])


class ActionnessHead(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        scores = self.net(x).squeeze(-1)
        return scores.topk(4, dim=1).values.mean(1)


device = setup_device()
model = ActionnessHead().to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = DataLoader(SnippetFeatures(), batch_size=8, shuffle=True, drop_last=True)
for step, (feats, labels) in enumerate(train_loader):  # fails-here
    feats, labels = feats.to(device), labels.to(device)
    loss = nn.functional.binary_cross_entropy_with_logits(model(feats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"steps {step + 1}, last loss {loss.item():.4f}")
