"""A Transformers4Rec-style session-based recommender fed by an NVTabular-style ETL workflow (re-typed in pandas): the item-recency feature is built by a custom op declared float64, LogOp and Normalize() keep float64, the new merlin-style dataloader returns each column in its stored dtype, and the model's continuous projection (float32 Linear) fails on the float64 list feature
source: https://github.com/NVIDIA-Merlin/NVTabular/issues/1698
reported-error: "Transformers4Rec expects the data type for the input batch of forward(*input,**kwargs) to be torch.float32 but now we are getting torch.float64 ... File .../torch/nn/modules/linear.py:114, in Linear.forward ... RuntimeError: expected scalar type Half but found Double" (fixed in the example ETL by Transformers4Rec PR #523: nvt.ops.Normalize(out_dtype=np.float32))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 81
root-cause: line 53
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)
SESSIONS_MAX_LENGTH = 20


# ---- NVTabular-style ops (re-typed over pandas) -------------------------------------------------
class ItemRecency:
    """Custom op of the tutorial ETL: days since the product was first seen; declares output_dtype float64."""
    output_dtype = np.float64

    def transform(self, df, col):
        delta_days = (df[col] - df["prod_first_event_time_ts"]) / (60 * 60 * 24)
        return (delta_days * (delta_days >= 0)).astype(self.output_dtype)


class LogOp:
    def transform(self, s):
        return np.log(s.astype(np.float64) + 1)


class Normalize:
    """Stat op: (x - mean) / std; without out_dtype the output keeps the dtype of the computation."""

    def __init__(self, out_dtype=None):
        self.out_dtype = out_dtype

    def fit_transform(self, s):
        self.mean, self.std = s.mean(), s.std()
        out = (s - self.mean) / self.std
        return out.astype(self.out_dtype) if self.out_dtype is not None else out


def etl(df):
    """02-ETL-with-NVTabular, section 5: categorify, time features, recency, price, groupby sessions."""
    df = df.sort_values(["user_session", "event_time_ts"])
    df["product_id"] = df["product_id"].astype("category").cat.codes.astype(np.int64) + 1
    weekday = pd.to_datetime(df["event_time_ts"], unit="s").dt.weekday
    df["et_dayofweek_sin"] = np.sin(2 * np.pi * (weekday + 1 + 0.000001) / 7).astype(np.float32)
    df["prod_first_event_time_ts"] = df.groupby("product_id")["event_time_ts"].transform("min")
    recency = ItemRecency().transform(df, "event_time_ts")
    df["product_recency_days_log_norm"] = Normalize().fit_transform(LogOp().transform(recency))  # root-cause
    df["price_log_norm"] = Normalize(out_dtype=np.float32).fit_transform(LogOp().transform(df["price"]))
    cols = ["product_id", "et_dayofweek_sin", "price_log_norm", "product_recency_days_log_norm"]
    sessions = df.groupby("user_session")[cols].agg(list)
    out = {}
    for c in cols:  # ListSlice(0, SESSIONS_MAX_LENGTH, pad=True) >> Rename(postfix="_seq")
        dtype = df[c].dtype
        out[c + "-list_seq"] = np.stack([np.pad(np.asarray(v[:SESSIONS_MAX_LENGTH], dtype=dtype), (0, SESSIONS_MAX_LENGTH - min(len(v), SESSIONS_MAX_LENGTH))) for v in sessions[c]])
    return out


def merlin_loader(data, batch_size):
    """merlin.dataloader behaviour: each column comes back in the dtype it was stored with."""
    n = len(next(iter(data.values())))
    for i in range(0, n, batch_size):
        yield {k: torch.from_numpy(v[i:i + batch_size]) for k, v in data.items()}


# ---- Transformers4Rec-style model -----------------------------------------------------------------
class TabularSequenceFeatures(nn.Module):
    def __init__(self, n_items, cont_names, d_model=32, continuous_projection=16):
        super().__init__()
        self.cont_names = cont_names
        self.item_emb = nn.Embedding(n_items + 1, d_model - continuous_projection, padding_idx=0)
        self.continuous_projection = nn.Linear(len(cont_names), continuous_projection)

    def forward(self, batch):
        cont = torch.stack([batch[c] for c in self.cont_names], dim=-1)
        return torch.cat([self.item_emb(batch["product_id-list_seq"]), self.continuous_projection(cont)], -1)  # fails-here


class NextItemModel(nn.Module):
    def __init__(self, n_items, cont_names, d_model=32):
        super().__init__()
        self.inputs = TabularSequenceFeatures(n_items, cont_names, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=64, batch_first=True)
        self.body = nn.TransformerEncoder(layer, num_layers=1)
        self.head = nn.Linear(d_model, n_items + 1)

    def forward(self, batch):
        return self.head(self.body(self.inputs(batch)))


n_events = 600
raw = pd.DataFrame({
    "user_session": rng.integers(0, 60, n_events),
    "product_id": rng.integers(1000, 1040, n_events),
    "price": rng.lognormal(3.0, 1.0, n_events).astype(np.float32),
    "event_time_ts": (1_569_888_000 + rng.integers(0, 30 * 86400, n_events)).astype(np.int64),
})
data = etl(raw)
print({k: v.dtype for k, v in data.items()})
cont = ["et_dayofweek_sin-list_seq", "price_log_norm-list_seq", "product_recency_days_log_norm-list_seq"]
model = NextItemModel(int(data["product_id-list_seq"].max()), cont)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for batch in merlin_loader(data, batch_size=16):
    items = batch["product_id-list_seq"]
    logits = model(batch)
    loss = nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), items[:, 1:].reshape(-1), ignore_index=0)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
