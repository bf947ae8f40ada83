"""The tsai-style TST run of ba03 (timeseriesAI/tsai #292) with the maintainer's advice applied: X from df2Xy is converted to float32 before the datasets and dataloaders are built, so TSStandardize(by_var=True) computes float statistics and TST trains; the integer count frame, df2Xy's .values, torch.as_tensor in TSDatasets and the int64 class indices for cross_entropy are kept
source: https://github.com/timeseriesAI/tsai/issues/292
reported-error: (none filed; the fixed situation of ba03)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def df2Xy(df, sample_col=None, data_cols=None, target_col=None, steps_in_rows=False, y_func=None):
    """tsai.data.preparation.df2Xy (re-typed: the sample_col / steps_in_rows / to3d path)."""
    df = df.sort_values([sample_col, "step"])
    X = df.loc[:, data_cols].values
    if X.dtype == "O":
        X = X.astype(np.float32)
    unique_ids = df[sample_col].unique().tolist()
    n_samples = len(unique_ids)
    if steps_in_rows:
        X = X.reshape(n_samples, -1, len(data_cols)).swapaxes(1, 2)
    else:
        X = X.reshape(n_samples, 1, -1)
    _y = np.concatenate(df.groupby(sample_col)[target_col].apply(np.array).reset_index()[target_col]).reshape(n_samples, -1)
    y = y_func(_y) if y_func is not None else _y
    return X, np.squeeze(y)


class TSDatasets:
    """tsai TSDatasets (re-typed): X kept as given (TSTensor), y categorized to int64 indices."""

    def __init__(self, X, y, splits):
        self.X, self.vocab = torch.as_tensor(X), np.unique(y)
        self.y = torch.as_tensor(np.searchsorted(self.vocab, y))
        self.train = torch.utils.data.TensorDataset(self.X[splits[0]], self.y[splits[0]])
        self.valid = torch.utils.data.TensorDataset(self.X[splits[1]], self.y[splits[1]])


class TSStandardize:
    """tsai TSStandardize batch transform (re-typed), statistics from the first batch, by_var=True."""

    def __init__(self, by_var=True, eps=1e-8):
        self.axes, self.eps, self.mean = ((0, 2) if by_var else (0, 1, 2)), eps, None

    def __call__(self, o):
        if self.mean is None:
            self.mean = o.mean(self.axes, keepdim=True)
            self.std = o.std(self.axes, keepdim=True) + self.eps
        return (o - self.mean) / self.std


class TSDataLoaders:
    @classmethod
    def from_dsets(cls, train, valid, bs=64, batch_tfms=None):
        dls = cls()
        dls.train = torch.utils.data.DataLoader(train, batch_size=bs, shuffle=True)
        dls.valid = torch.utils.data.DataLoader(valid, batch_size=bs)
        dls.batch_tfms = batch_tfms or (lambda o: o)
        return dls


class TST(nn.Module):
    """Time Series Transformer (re-typed, small): W_P projection of the c_in variables, encoder, flatten head."""

    def __init__(self, c_in, c_out, seq_len, d_model=32):
        super().__init__()
        self.W_P = nn.Linear(c_in, d_model)
        self.W_pos = nn.Parameter(torch.zeros(1, seq_len, d_model))
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.head = nn.Linear(d_model * seq_len, c_out)

    def forward(self, x):
        u = self.W_P(x.transpose(2, 1)) + self.W_pos
        return self.head(self.encoder(u).flatten(1))


n_samples, seq_len = 240, 50
activity = rng.integers(0, 3, n_samples)
rows = []
for sid, act in enumerate(activity):
    steps = rng.poisson(3 + 4 * act, size=(seq_len, 3))
    for t in range(seq_len):
        rows.append((sid, t, *steps[t], act))
df = pd.DataFrame(rows, columns=["sample_id", "step", "acc_x", "acc_y", "acc_z", "activity"])
print(df.dtypes.to_dict())

X, y = df2Xy(df, sample_col="sample_id", data_cols=["acc_x", "acc_y", "acc_z"], target_col="activity", steps_in_rows=True, y_func=lambda o: o[:, -1])
X = X.astype(np.float32)
print("X", X.shape, X.dtype, "y", y.shape, y.dtype)
idx = rng.permutation(n_samples)
dsets = TSDatasets(X, y, (idx[:192], idx[192:]))
dls = TSDataLoaders.from_dsets(dsets.train, dsets.valid, bs=64, batch_tfms=TSStandardize(by_var=True))
model = TST(X.shape[1], len(dsets.vocab), X.shape[2])
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for xb, yb in dls.train:
        xb = dls.batch_tfms(xb)
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", round(loss.item(), 4))
