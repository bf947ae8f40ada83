"""A tsai-style time-series classification run (re-typed: fastai's add_datepart, tsai's SlidingWindow, TSDatasets, a small InceptionTime): the date features added to the sensor frame are int8/int16/int64 parts plus bool Is_month_end-style flags, SlidingWindow takes the x columns of the mixed frame with .values, which gives an object ndarray, and TSDatasets cannot turn the object windows into a tensor
source: https://github.com/timeseriesAI/tsai/issues/84
reported-error: "Invalid X, y array dtype after using Sliding Window ... X, y = SlidingWindow(window_len=window_length, start=start, stride=stride, horizon=horizon, get_x=get_x, get_y=get_y)(df) ... dsets = TSDatasets(X, y, tfms=tfms, splits=splits) ... TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool." (df.dtypes: x1 int32, x2..x4 float32, datetimeYear int16, datetimeMonth int8, ..., datetimeIs_month_end bool, ...)
outcome: TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool. at line 55
root-cause: line 38
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def add_datepart(df, field_name, prefix="datetime", drop=True):
    """fastai.tabular.core.add_datepart (re-typed), with the integer parts shrunk as in the report."""
    field = df[field_name]
    attrs = {"Year": np.int16, "Month": np.int8, "Day": np.int8, "Dayofweek": np.int8, "Dayofyear": np.int16}
    for n, dt in attrs.items():
        df[prefix + n] = getattr(field.dt, n.lower()).astype(dt)
    df[prefix + "Week"] = field.dt.isocalendar().week.astype(np.int8)
    for n in ("Is_month_end", "Is_month_start", "Is_quarter_end", "Is_quarter_start", "Is_year_end", "Is_year_start"):
        df[prefix + n] = getattr(field.dt, n.lower())
    df[prefix + "Elapsed"] = field.astype(np.int64) // 10 ** 9
    if drop:
        df = df.drop(field_name, axis=1)
    return df


def SlidingWindow(window_len, stride=1, start=0, get_x=None, get_y=None, horizon=1):
    """tsai.data.preparation.SlidingWindow (re-typed, DataFrame branch, seq_first=True)."""
    horizon_rng = np.array([0]) if horizon == 0 else np.arange(1, horizon + 1)
    stride = stride or window_len

    def _inner(o):
        X = o.iloc[:, get_x].values  # root-cause
        y = o.iloc[:, get_y].values
        seq_len = len(X)
        X_max_time = seq_len - start - window_len - max(horizon_rng)
        X_sub_windows = start + np.expand_dims(np.arange(window_len), 0) + np.expand_dims(np.arange(X_max_time + 1, step=stride), 0).T
        X = np.transpose(X[X_sub_windows], (0, 2, 1))
        y_start = start + window_len - 1
        y_sub_windows = y_start + np.expand_dims(horizon_rng, 0) + np.expand_dims(np.arange(seq_len - y_start - max(horizon_rng), step=stride), 0).T
        y = np.squeeze(y[y_sub_windows])
        return X, y
    return _inner


class TSDatasets(torch.utils.data.Dataset):
    """tsai TSDatasets (re-typed): X becomes a TSTensor once, y is categorized."""

    def __init__(self, X, y, splits):
        self.tsx = torch.as_tensor(X)  # fails-here
        self.vocab = np.unique(y)
        self.y = torch.as_tensor(np.searchsorted(self.vocab, y))
        self.splits = splits

    def subset(self, i):
        return torch.utils.data.TensorDataset(self.tsx[self.splits[i]], self.y[self.splits[i]])


class InceptionBlock(nn.Module):
    def __init__(self, ni, nf=16):
        super().__init__()
        self.bottleneck = nn.Conv1d(ni, nf, 1, bias=False)
        self.convs = nn.ModuleList([nn.Conv1d(nf, nf, k, padding=k // 2, bias=False) for k in (9, 19, 39)])
        self.bn = nn.BatchNorm1d(nf * 3)

    def forward(self, x):
        x = self.bottleneck(x)
        return torch.relu(self.bn(torch.cat([c(x) for c in self.convs], 1)))


class InceptionTime(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.block = InceptionBlock(c_in)
        self.fc = nn.Linear(48, c_out)

    def forward(self, x):
        return self.fc(self.block(x).mean(-1))


n = 4000
df = pd.DataFrame({
    "x1": rng.integers(0, 50, n).astype(np.int32),
    "x2": rng.normal(size=n).astype(np.float32),
    "x3": rng.normal(size=n).astype(np.float32),
    "x4": rng.normal(size=n).astype(np.float32),
    "datetime": pd.date_range("2020-01-01", periods=n, freq="h"),
})
df = add_datepart(df, "datetime")
df["target"] = (df["x2"].rolling(40, min_periods=1).mean() > 0).astype(np.int64)
print(df.dtypes.value_counts().to_dict())

window_length, stride, horizon = 40, 40, 0
get_x, get_y = list(range(df.shape[1] - 1)), [-1]
X, y = SlidingWindow(window_length, stride=stride, horizon=horizon, get_x=get_x, get_y=get_y)(df)  # root-cause-alt
print("X", X.shape, X.dtype, "y", y.shape, y.dtype)
idx = rng.permutation(len(X))
splits = (idx[: int(0.8 * len(X))], idx[int(0.8 * len(X)):])
dsets = TSDatasets(X, y, splits)
train_dl = torch.utils.data.DataLoader(dsets.subset(0), batch_size=16, shuffle=True)
model = InceptionTime(X.shape[1], len(dsets.vocab))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for xb, yb in train_dl:
    xb = (xb - xb.mean((0, 2), keepdim=True)) / (xb.std((0, 2), keepdim=True) + 1e-8)
    loss = nn.functional.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
