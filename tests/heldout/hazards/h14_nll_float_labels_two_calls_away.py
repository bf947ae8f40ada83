"""Lightning-like module; labels are produced by a helper two calls away that
returns them as floats (they were thresholded from a continuous score)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _score_to_class(score):
    return torch.bucketize(score, torch.tensor([-0.5, 0.5])).float()  # expect: DG006


def _make_split(n):
    x = torch.randn(n, 6)
    score = x[:, :2].sum(1) / 2
    return x, _score_to_class(score)


def build_datasets():
    return {"train": _make_split(128), "val": _make_split(32)}


class LitClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return F.log_softmax(self.body(x), dim=-1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        log_probs = self(x)
        loss = F.nll_loss(log_probs, y)
        return {"loss": loss}


data = build_datasets()
module = LitClassifier()
optimizer = torch.optim.Adam(module.parameters(), lr=5e-3)
x_train, y_train = data["train"]
for batch_idx, start in enumerate(range(0, len(x_train), 32)):
    batch = (x_train[start:start + 32], y_train[start:start + 32])
    out = module.training_step(batch, batch_idx)
    optimizer.zero_grad()
    out["loss"].backward()
    optimizer.step()
    print(f"batch {batch_idx}: {out['loss'].item():.4f}")
