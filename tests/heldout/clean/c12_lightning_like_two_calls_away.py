"""Lightning-like module with training_step/validation_step called from a loop.
The data comes from helpers two calls away and is float32 / int64."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def _raw_split(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 8), dtype=np.float32)
    y = (x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0).astype(np.int64)
    return x, y


def _to_batches(x, y, bs):
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    return [(xt[i:i + bs], yt[i:i + bs]) for i in range(0, len(xt), bs)]


def build_datamodule(bs=32):
    return {"train": _to_batches(*_raw_split(160, 0), bs), "val": _to_batches(*_raw_split(64, 1), bs)}


class LitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.model(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return (self(x).argmax(-1) == y).float().mean()

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-2)


def fit(module, dm, epochs=2):
    opt = module.configure_optimizers()
    for epoch in range(epochs):
        module.train()
        for idx, batch in enumerate(dm["train"]):
            loss = module.training_step(batch, idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        module.eval()
        with torch.no_grad():
            accs = [module.validation_step(b, i) for i, b in enumerate(dm["val"])]
        print(f"epoch {epoch}: loss {loss.item():.3f} val_acc {torch.stack(accs).mean().item():.3f}")


if __name__ == "__main__":
    fit(LitNet(), build_datamodule())
