"""Licence-plate recognition whose plate generator still returns float64 one-hot code vectors, but the batch helper converts them to class indices with .argmax(dim=1) (int64) before nn.CrossEntropyLoss, so the loss is float32 class-index cross-entropy
source: https://github.com/pytorch/pytorch/issues/1258
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
N_POS = 7


def code_to_vec(code):
    y = np.zeros((len(code), len(CHARS)))
    for i, c in enumerate(code):
        y[i, CHARS.index(c)] = 1.0
    return y


def read_batch(batch_size=4, seed=0):
    rng = np.random.default_rng(seed)
    ims = rng.random((batch_size, 1, 64, 128), dtype=np.float32)
    ys = np.concatenate([code_to_vec("".join(rng.choice(list(CHARS), N_POS))) for _ in range(batch_size)])
    return torch.from_numpy(ims), torch.from_numpy(ys).argmax(dim=1)


model = nn.Sequential(nn.Conv2d(1, 8, 5, stride=2, padding=2), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 8)), nn.Flatten(), nn.Linear(256, N_POS * len(CHARS)))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
    inputs, targets = read_batch(seed=step)
    loss = criterion(model(inputs).view(-1, len(CHARS)), targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}, loss dtype {loss.dtype}, targets {targets.dtype}")
