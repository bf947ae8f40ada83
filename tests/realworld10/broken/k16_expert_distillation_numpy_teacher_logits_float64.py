"""Learning-from-multiple-experts style distillation: each expert's soft predictions are cached with numpy (float64) and served by the dataset, so the MSE between the float32 student logits and the expert targets is computed, and backpropagated, in float64 without any error
source: https://github.com/xiangly55/LFME/issues/2
reported-error: RuntimeError: Found dtype Double but expected Float (training from the pretrained experts; the reporter could not find where the Double came from)
outcome: ok (silent: the distillation loss at line 40 is float64, printed as "loss dtype torch.float64", because the cached expert targets are float64)
root-cause: line 30
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def cache_expert_logits(n, n_classes, n_experts=3, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(n, n_classes)) for _ in range(n_experts)]


class DistillDataset(Dataset):
    def __init__(self, n=128, dim=20, n_classes=5):
        g = torch.Generator().manual_seed(0)
        self.x = torch.randn(n, dim, generator=g)
        self.y = torch.randint(0, n_classes, (n,), generator=g)
        self.expert_logits = cache_expert_logits(n, n_classes)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        experts = torch.from_numpy(np.mean([e[i] for e in self.expert_logits], axis=0))  # root-cause
        return self.x[i], self.y[i], experts


student = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
ce, mse = nn.CrossEntropyLoss(), nn.MSELoss()
for epoch in range(2):
    for x, y, expert in DataLoader(DistillDataset(), batch_size=32, shuffle=True):
        logits = student(x)
        loss = ce(logits, y) + 0.5 * mse(logits, expert)  # fails-here
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}, loss dtype {loss.dtype}")
