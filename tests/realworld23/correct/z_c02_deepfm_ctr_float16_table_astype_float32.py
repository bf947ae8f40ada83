"""Click-through-rate DeepFM whose user table keeps its numeric scores as float16 in pandas to save memory, while the dataset converts every numeric column with .astype(np.float32) before torch.from_numpy, so the dense tower sees float32
source: https://github.com/GitHub-HongweiZhang/prediction-flow/issues/23
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- data/load_user_table.py
def load_user_table(n=256, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "user_id": rng.integers(0, 50, n),
        "video_id": rng.integers(0, 80, n),
        "followscore": rng.random(n),
        "personalscore": rng.random(n) * 10,
        "label": rng.integers(0, 2, n),
    })
    df[["followscore", "personalscore"]] = df[["followscore", "personalscore"]].astype("float16")
    return df


# ---- prediction_flow/pytorch/data.py
class CTRDataset(Dataset):
    def __init__(self, df, sparse_cols, number_cols):
        self.sparse = {c: torch.from_numpy(df[c].to_numpy()) for c in sparse_cols}
        self.number = {c: torch.from_numpy(df[c].to_numpy().astype(np.float32)) for c in number_cols}
        self.label = torch.from_numpy(df["label"].to_numpy().astype(np.float32))

    def __len__(self):
        return len(self.label)

    def __getitem__(self, i):
        item = {c: t[i] for c, t in self.sparse.items()}
        item.update({c: t[i].unsqueeze(0) for c, t in self.number.items()})
        item["label"] = self.label[i]
        return item


# ---- prediction_flow/pytorch/deepfm.py
class DeepFM(nn.Module):
    def __init__(self, vocab, number_cols, emb=8):
        super().__init__()
        self.embeddings = nn.ModuleDict({c: nn.Embedding(v, emb) for c, v in vocab.items()})
        self.number_cols = number_cols
        self.dense = nn.Linear(len(number_cols), emb)
        self.mlp = nn.Sequential(nn.Linear(emb * (len(vocab) + 1), 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, batch):
        embs = [self.embeddings[c](batch[c]) for c in self.embeddings]
        number_inputs = [batch[c] for c in self.number_cols]
        linear_concat = torch.cat(number_inputs, dim=1)
        dense = self.dense(linear_concat)
        fm = 0.5 * (torch.stack(embs, 1).sum(1) ** 2 - (torch.stack(embs, 1) ** 2).sum(1)).sum(1, keepdim=True)
        return (self.mlp(torch.cat(embs + [dense], dim=1)) + fm).squeeze(1)


# ---- prediction_flow/pytorch/functions.py
def fit(epochs, model, loss_func, optimizer, train_loader):
    for epoch in range(epochs):
        for batch in train_loader:
            pred = model(batch)
            loss = loss_func(pred, batch["label"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    df = load_user_table()
    number_cols = ["followscore", "personalscore"]
    ds = CTRDataset(df, ["user_id", "video_id"], number_cols)
    model = DeepFM({"user_id": 50, "video_id": 80}, number_cols)
    fit(2, model, nn.BCEWithLogitsLoss(), torch.optim.Adam(model.parameters(), 1e-3), DataLoader(ds, batch_size=32, shuffle=True))
