"""Semi-structured distributional regression (PySDDR layout) on a breast-cancer recurrence table: the categorical age and tumour-size bins are label-encoded to integers, but the SddrDataset turns the whole deep-part frame into one float tensor, so the nn.Embedding of the deep network receives float indices
source: https://github.com/HelmholtzAI-Consultants-Munich/PySDDR/issues/3
reported-error: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) (including categorical variables in the DNN part with nn.Embedding)
outcome: RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding) at line 44
root-cause: line 26
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- sklearn.preprocessing.LabelEncoder stand-in
class LabelEncoder:
    def fit_transform(self, values):
        self.classes_ = np.unique(values)
        return np.searchsorted(self.classes_, values)


# ---- sddr/utils/dataset.py
class SddrDataset(Dataset):
    def __init__(self, data, target, structured_cols, deep_cols):
        self.structured = torch.tensor(data[structured_cols].values, dtype=torch.float)
        self.deep = torch.tensor(data[deep_cols].values, dtype=torch.float)  # root-cause
        self.target = torch.tensor(target.values, dtype=torch.float)

    def __len__(self):
        return len(self.target)

    def __getitem__(self, i):
        return {"structured": self.structured[i], "deep": self.deep[i]}, self.target[i]


# ---- the user's deep network passed as deep_models_dict
class CategoricalNet(nn.Module):
    def __init__(self, n_levels=(6, 11), emb_dim=4):
        super().__init__()
        self.embeddings = nn.ModuleList([nn.Embedding(n, emb_dim) for n in n_levels])
        self.mlp = nn.Sequential(nn.Linear(emb_dim * len(n_levels), 8), nn.ReLU())

    def forward(self, x_cat):
        embs = [emb(x_cat[:, j]) for j, emb in enumerate(self.embeddings)]  # fails-here
        return self.mlp(torch.cat(embs, 1))


# ---- sddr/sddrnet.py
class SddrNet(nn.Module):
    def __init__(self, n_structured, deep_net):
        super().__init__()
        self.structured = nn.Linear(n_structured, 1)
        self.deep_net = deep_net
        self.deep_head = nn.Linear(8, 1, bias=False)

    def forward(self, batch):
        eta = self.structured(batch["structured"]) + self.deep_head(self.deep_net(batch["deep"]))
        return torch.sigmoid(eta).squeeze(-1)


class Sddr:
    def __init__(self, deep_net, n_structured, epochs=2, lr=1e-2):
        self.net = SddrNet(n_structured, deep_net)
        self.epochs, self.lr = epochs, lr

    def train(self, loader):
        optimizer = torch.optim.Adam(self.net.parameters(), lr=self.lr)
        for epoch in range(self.epochs):
            for batch, target in loader:
                loss = nn.functional.binary_cross_entropy(self.net(batch), target)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n = 120
    data = pd.DataFrame({
        "age": rng.choice(["30-39", "40-49", "50-59", "60-69", "70-79", "20-29"], n),
        "tumor_size": rng.choice([f"{5 * i}-{5 * i + 4}" for i in range(11)], n),
        "deg_malig": rng.integers(1, 4, n).astype(float),
    })
    y = pd.Series((rng.random(n) < 0.3).astype(np.int64), name="class")
    for col in ("age", "tumor_size"):
        data[col] = LabelEncoder().fit_transform(data[col].values)
    dataset = SddrDataset(data, y, structured_cols=["deg_malig"], deep_cols=["age", "tumor_size"])
    torch.manual_seed(0)
    Sddr(CategoricalNet(), n_structured=1).train(DataLoader(dataset, batch_size=16, shuffle=True))
