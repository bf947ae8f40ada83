"""CTR trainer that switches the DeepFM to bfloat16 after warm-up and rebuilds Adam right after the cast (the torch-rechub fix: create the optimizer after the model conversion), so no float32 state meets bfloat16 gradients
source: https://github.com/datawhalechina/torch-rechub/pull/26
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class DeepFM(nn.Module):
    def __init__(self, field_dims, dim=8):
        super().__init__()
        self.offsets = torch.tensor(np.concatenate([[0], np.cumsum(field_dims)[:-1]]))
        self.emb = nn.Embedding(int(sum(field_dims)), dim)
        self.linear = nn.Embedding(int(sum(field_dims)), 1)
        self.mlp = nn.Sequential(nn.Linear(len(field_dims) * dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        x = x + self.offsets
        e = self.emb(x)
        fm = 0.5 * (e.sum(1) ** 2 - (e ** 2).sum(1)).sum(1, keepdim=True)
        return torch.sigmoid(self.linear(x).sum(1) + fm + self.mlp(e.flatten(1))).squeeze(1)


class CTRTrainer:
    def __init__(self, model, lr=1e-3, warmup_epochs=1, fast_dtype=torch.bfloat16):
        self.model, self.warmup_epochs, self.fast_dtype = model, warmup_epochs, fast_dtype
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-5)

    def on_epoch_end(self, epoch):
        if epoch + 1 == self.warmup_epochs:
            self.model.to(self.fast_dtype)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3, weight_decay=1e-5, eps=1e-6)

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            for x, y in loader:
                pred = self.model(x)
                loss = nn.functional.binary_cross_entropy(pred.float(), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch}: logloss {loss.item():.4f}")
            self.on_epoch_end(epoch)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"user_id": rng.integers(0, 50, 512), "item_id": rng.integers(0, 80, 512),
                       "cate_id": rng.integers(0, 6, 512), "click": rng.integers(0, 2, 512)})
    feats = ["user_id", "item_id", "cate_id"]
    field_dims = [int(df[f].max()) + 1 for f in feats]
    ds = TensorDataset(torch.tensor(df[feats].values), torch.tensor(df["click"].values, dtype=torch.float32))
    CTRTrainer(DeepFM(field_dims)).fit(DataLoader(ds, batch_size=64, shuffle=True))
