"""Loan-default classifier on a pandas table: the model ends in a Sigmoid and is trained with nn.BCELoss, but the dataset maps the status column to 0/1 with Series.map, which yields int64 labels, and the Trainer hands that Long target straight to the criterion
source: https://leyaa.ai/codefly/learn/pytorch/qna/how-to-use-bceloss-pytorch
reported-error: common BCELoss pitfall listed by the page: the targets must be float tensors of 0/1 with the same shape as the sigmoid probabilities (integer labels fail)
outcome: RuntimeError: Found dtype Long but expected Float at line 65
root-cause: line 35
expect: DG007
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- data.py
def load_frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "income": rng.normal(50_000, 15_000, n),
        "loan_amount": rng.normal(12_000, 4_000, n),
        "credit_score": rng.integers(450, 850, n),
        "term_months": rng.choice([36, 60], n),
    })
    df["status"] = np.where(rng.random(n) < 0.2, "default", "paid")
    return df


class LoanDataset(Dataset):
    FEATURES = ["income", "loan_amount", "credit_score", "term_months"]

    def __init__(self, df, stats=None):
        x = df[self.FEATURES].to_numpy(dtype=np.float32)
        self.mean, self.std = stats if stats is not None else (x.mean(0), x.std(0))
        self.x = torch.from_numpy((x - self.mean) / self.std)
        self.y = torch.tensor(df["status"].map({"paid": 0, "default": 1}).values).unsqueeze(1)  # root-cause

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


# ---- model.py
class DefaultNet(nn.Module):
    def __init__(self, n_in=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x)


# ---- trainer.py
class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.criterion = nn.BCELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            for x, y in loader:
                probs = self.model(x)
                loss = self.criterion(probs, y)  # fails-here
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    torch.manual_seed(0)
    train_ds = LoanDataset(load_frame())
    Trainer(DefaultNet()).fit(DataLoader(train_ds, batch_size=32, shuffle=True))
