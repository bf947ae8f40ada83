"""FT-Transformer on a quantile/standard-scaled tabular dataset: the scaled float64 arrays become torch tensors as-is
source: https://github.com/yandex-research/rtdl-revisiting-models/issues/51
reported-error: RuntimeError: expected scalar type Double but found Float
outcome: RuntimeError: mixed dtype (CPU): all inputs must share same datatype. at line 82 (first LayerNorm of the norm_first TransformerEncoderLayer; the tokenizer's elementwise ops silently promoted to float64)
root-cause: line 96
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

config = {
    "seed": 0,
    "data": {"n_samples": 256, "n_num_features": 8},
    "model": {"d_token": 32, "n_blocks": 2, "attention_n_heads": 4, "ffn_d_hidden": 64},
    "training": {"lr": 1e-4, "weight_decay": 1e-5, "batch_size": 64, "n_epochs": 2},
}


# --- lib/data.py (inlined) ------------------------------------------------------------------
class StandardScaler:
    """Stand-in for sklearn.preprocessing.StandardScaler: like sklearn, float64 in -> float64 out."""

    def fit(self, X):
        X = np.asarray(X, dtype=np.float64)
        self.mean_ = X.mean(0)
        self.scale_ = X.std(0)
        self.scale_[self.scale_ == 0] = 1.0
        return self

    def transform(self, X):
        return (np.asarray(X, dtype=np.float64) - self.mean_) / self.scale_

    def fit_transform(self, X):
        return self.fit(X).transform(X)


def load_dataset(cfg):
    rng = np.random.default_rng(cfg["seed"])
    n = cfg["data"]["n_samples"]
    X_all = rng.normal(size=(n, cfg["data"]["n_num_features"])) * 10 + 3
    y_all = X_all[:, 0] - 2 * X_all[:, 1] + rng.normal(size=n)
    idx = rng.permutation(n)
    parts = {"train": idx[: n // 2], "val": idx[n // 2: 3 * n // 4], "test": idx[3 * n // 4:]}
    X = {k: X_all[v] for k, v in parts.items()}
    y = {k: y_all[v] for k, v in parts.items()}
    return X, y


# --- lib/ft_transformer.py (inlined) --------------------------------------------------------
class NumericalFeatureTokenizer(nn.Module):
    def __init__(self, n_features, d_token):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_features, d_token))
        self.bias = nn.Parameter(torch.empty(n_features, d_token))
        for p in (self.weight, self.bias):
            nn.init.uniform_(p, -1 / math.sqrt(d_token), 1 / math.sqrt(d_token))

    def forward(self, x):
        return self.weight[None] * x[..., None] + self.bias[None]


class FTTransformer(nn.Module):
    def __init__(self, n_num_features, d_token, n_blocks, attention_n_heads, ffn_d_hidden):
        super().__init__()
        self.tokenizer = NumericalFeatureTokenizer(n_num_features, d_token)
        self.cls = nn.Parameter(torch.zeros(1, 1, d_token))
        self.blocks = nn.ModuleList([
            nn.TransformerEncoderLayer(d_token, attention_n_heads, ffn_d_hidden, dropout=0.1,
                                       batch_first=True, norm_first=True)
            for _ in range(n_blocks)
        ])
        self.head = nn.Sequential(nn.LayerNorm(d_token), nn.ReLU(), nn.Linear(d_token, 1))

    def forward(self, x_num):
        x = self.tokenizer(x_num)
        x = torch.cat([self.cls.expand(len(x), -1, -1), x], dim=1)
        for block in self.blocks:
            x = block(x)  # fails-here
        return self.head(x[:, 0]).squeeze(-1)


def main():
    torch.manual_seed(config["seed"])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    X, y = load_dataset(config)
    preprocessing = StandardScaler().fit(X["train"])
    X = {k: preprocessing.transform(v) for k, v in X.items()}
    y_mean, y_std = y["train"].mean(), y["train"].std()
    y = {k: (v - y_mean) / y_std for k, v in y.items()}

    X = {k: torch.tensor(v, device=device) for k, v in X.items()}  # root-cause
    y = {k: torch.tensor(v, device=device).float() for k, v in y.items()}

    model = FTTransformer(config["data"]["n_num_features"], **config["model"]).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["training"]["lr"],
                                  weight_decay=config["training"]["weight_decay"])

    bs = config["training"]["batch_size"]
    for epoch in range(config["training"]["n_epochs"]):
        model.train()
        perm = torch.randperm(len(X["train"]), device=device)
        for i in range(0, len(perm), bs):
            batch_idx = perm[i:i + bs]
            optimizer.zero_grad()
            loss = F.mse_loss(model(X["train"][batch_idx]), y["train"][batch_idx])
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
