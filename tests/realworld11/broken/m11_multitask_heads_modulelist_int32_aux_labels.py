"""Multi-task tabular model with an nn.ModuleList of heads (regression + two classification tasks) and early stopping; the second task's labels come from a label-encoder helper that returns np.int32 codes, wrapped with torch.from_numpy and fed to CrossEntropyLoss inside the summed multi-task loss
source: https://openillumi.com/?p=68984
reported-error: RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Int' (classification targets loaded as 32-bit integers; on CPU: expected target dtype to be Long or Byte, but got Int)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 39
root-cause: line 22
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(0)
X = rng.normal(size=(80, 6)).astype(np.float32)
PRICE = (X[:, 0] * 2 + X[:, 1]).astype(np.float32)
SEGMENT = np.where(X[:, 2] > 0, "retail", "wholesale")
CHANNEL = (X[:, 3] > 0.5).astype(np.int64)


def label_encode(values):
    classes = sorted(set(values.tolist()))
    lookup = {c: i for i, c in enumerate(classes)}
    return np.fromiter((lookup[v] for v in values), dtype=np.int32, count=len(values)), classes  # root-cause


class MultiTask(nn.Module):
    def __init__(self, n_in, outs):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU())
        self.heads = nn.ModuleList([nn.Linear(32, k) for k in outs])

    def forward(self, x):
        h = self.trunk(x)
        return [head(h) for head in self.heads]


def multitask_loss(outs, targets, weights=(1.0, 0.5, 0.5)):
    price, segment, channel = targets
    losses = [nn.functional.mse_loss(outs[0].squeeze(1), price),
              nn.functional.cross_entropy(outs[1], segment),  # fails-here
              nn.functional.cross_entropy(outs[2], channel)]
    return sum(w * loss for w, loss in zip(weights, losses))


def fit(model, x, targets, patience=3, max_epochs=30):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    best, bad = float("inf"), 0
    for epoch in range(max_epochs):
        loss = multitask_loss(model(x), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if loss.item() < best - 1e-4:
            best, bad = loss.item(), 0
        else:
            bad += 1
            if bad >= patience:
                break
    return best


if __name__ == "__main__":
    seg_codes, _ = label_encode(SEGMENT)
    targets = (torch.from_numpy(PRICE), torch.from_numpy(seg_codes), torch.from_numpy(CHANNEL))
    print(f"best {fit(MultiTask(6, [1, 2, 2]), torch.from_numpy(X), targets):.4f}")
