"""Train TabTransformer on an Adult-census-like table (lucidrains/tab-transformer-pytorch layout: tab_transformer_pytorch/ package with TabTransformer, a data module): the continuous columns (age, hours-per-week, ...) are integer in the CSV, data.py turns them into an int64 tensor, and TabTransformer's LayerNorm over the continuous features refuses it
source: https://github.com/lucidrains/tab-transformer-pytorch/blob/23a2959818f59e4db573fb72f9c869cf73aa10c7/tab_transformer_pytorch/tab_transformer_pytorch.py
reported-error: (the repository file itself: forward(x_categ, x_cont) normalises x_cont with nn.LayerNorm(num_continuous); this variant feeds it integer continuous columns straight from pandas: RuntimeError: mixed dtype (CPU): all inputs must share same datatype.)
outcome: RuntimeError: mixed dtype (CPU): all inputs must share same datatype. at tab_transformer_pytorch/tab_transformer_pytorch.py:45
root-cause: data.py:15
expect: DG005
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from data import CATEGORICAL, CONTINUOUS, AdultDataset
from tab_transformer_pytorch import TabTransformer


def write_csv(path, n=64):
    rng = np.random.default_rng(0)
    pd.DataFrame({
        "workclass": rng.choice(["private", "self-emp", "gov"], n),
        "education": rng.choice(["hs", "bachelors", "masters", "doctorate"], n),
        "sex": rng.choice(["f", "m"], n),
        "age": rng.integers(18, 80, n),
        "hours_per_week": rng.integers(10, 70, n),
        "capital_gain": rng.integers(0, 5000, n),
        "income": rng.integers(0, 2, n),
    }).to_csv(path, index=False)


if __name__ == "__main__":
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "adult.csv")
    write_csv(path)
    ds = AdultDataset(path)
    model = TabTransformer(categories=ds.cardinalities, num_continuous=len(CONTINUOUS), dim=16, dim_out=1, depth=2,
                           heads=2, attn_dropout=0.1, ff_dropout=0.1)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for x_categ, x_cont, y in DataLoader(ds, batch_size=16, shuffle=True):
            pred = model(x_categ, x_cont).squeeze(-1)
            loss = F.binary_cross_entropy_with_logits(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f} ({len(CATEGORICAL)} categorical columns)")
