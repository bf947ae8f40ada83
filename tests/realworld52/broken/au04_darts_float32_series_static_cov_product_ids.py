"""Store/product sales forecasting with a darts-style global torch model: the sales CSV (id_store, id_product, target_date, units) is split into one TimeSeries per (store, product) with TimeSeries.from_group_dataframe, the integer IDs becoming static covariates, and every series is cast with .astype("float32") for faster (mixed-precision) training; TimeSeries casts numeric static covariates to the series dtype, so 9-digit product IDs are rounded to float32 (100100037 -> 100100040) and the forecasts written back per product no longer join the product catalogue
source: https://github.com/unit8co/darts/issues/2277
reported-error: (no exception) "This modifies static covariates to float32, altering ID values in a weird way: e.g., id_product 100100037 changes to 100100040." (TimeSeries.astype("float32") before training a TemporalFusionTransformer on store/product sales; the reporter asks whether the IDs should be kept as strings)
outcome: ok (silent: TimeSeries casts numeric static covariates to the series dtype, so .astype("float32") rounds the product IDs at line 45: 100100037, 100100038 and 100100041 all become 100100040, 100100046 becomes 100100048, 200300017 and 200300021 both become 200300016; 126 of 126 forecast rows match no catalogue product, where au_c04 matches all 126)
root-cause: line 71
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(11)
out_dir = tempfile.mkdtemp()

# ---- the sales export and the product catalogue ----
catalogue = pd.DataFrame({"id_product": [100100037, 100100038, 100100041, 100100046, 200300017, 200300021],
                          "name": ["still water 0.5l", "still water 1.5l", "sparkling 0.5l", "sparkling 1.5l",
                                   "orange juice 1l", "apple juice 1l"]})
dates = pd.date_range("2023-01-02", periods=140, freq="D")
rows = []
for id_store in (11, 12, 17):
    for id_product in catalogue.id_product:
        level = rng.uniform(20, 80)
        weekly = 1 + 0.3 * np.sin(2 * np.pi * np.arange(len(dates)) / 7 + rng.uniform(0, 6))
        units = rng.poisson(level * weekly)
        rows += [(id_store, id_product, d.strftime("%Y-%m-%d"), u) for d, u in zip(dates, units)]
pd.DataFrame(rows, columns=["id_store", "id_product", "target_date", "units"]).to_csv(
    os.path.join(out_dir, "sales.csv"), index=False)
df = pd.read_csv(os.path.join(out_dir, "sales.csv"), parse_dates=["target_date"])


# ---- darts TimeSeries stand-in (values + static covariates, numeric covariates follow the values' dtype) ----
class TimeSeries:
    def __init__(self, times, values, static_covariates=None):
        self.time_index, self._values = times, values
        if static_covariates is not None:
            static_covariates = static_covariates.copy()
            cols_to_cast = static_covariates.select_dtypes(include=np.number, exclude=self.dtype).columns
            if not cols_to_cast.empty:
                static_covariates = static_covariates.astype({col: self.dtype for col in cols_to_cast})  # fails-here
        self.static_covariates = static_covariates

    @property
    def dtype(self):
        return self._values.dtype

    def values(self):
        return self._values

    def astype(self, dtype):
        return TimeSeries(self.time_index, self._values.astype(dtype), self.static_covariates)

    @classmethod
    def from_group_dataframe(cls, df, group_cols, time_col, value_cols):
        series = []
        for static_cov_vals, group in df.groupby(group_cols):
            group = group.sort_values(time_col)
            static_covs = pd.DataFrame([static_cov_vals], columns=group_cols)
            series.append(cls(pd.DatetimeIndex(group[time_col]), group[[value_cols]].to_numpy(dtype=np.float64),
                              static_covs))
        return series


series = TimeSeries.from_group_dataframe(df, group_cols=["id_store", "id_product"], time_col="target_date",
                                         value_cols="units")
series = [s.astype("float32") for s in series]  # root-cause
print("static covariates of the first series:", series[0].static_covariates.to_dict("records"))

# ---- a small global forecasting model (lags + scaled static covariates), trained in float32 ----
IN_LEN, OUT_LEN = 28, 7
static = np.stack([s.static_covariates.to_numpy(dtype=np.float32)[0] for s in series])
static_mean, static_std = static.mean(0), static.std(0) + 1e-6


def windows(s, k):
    y = s.values()[:, 0]
    scale = y[:-OUT_LEN].mean()
    x_static = (s.static_covariates.to_numpy(dtype=np.float32)[0] - static_mean) / static_std
    for start in range(0, len(y) - IN_LEN - OUT_LEN + 1, 3):
        yield y[start:start + IN_LEN] / scale, x_static, y[start + IN_LEN:start + IN_LEN + OUT_LEN] / scale, k


samples = [w for k, s in enumerate(series) for w in windows(s, k)]
X = torch.tensor(np.stack([np.concatenate([a, b]) for a, b, _, _ in samples]))
Y = torch.tensor(np.stack([c for _, _, c, _ in samples]))
model = nn.Sequential(nn.Linear(IN_LEN + static.shape[1], 64), nn.ReLU(), nn.Linear(64, OUT_LEN))
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(60):
    perm = torch.randperm(len(X))
    for i in range(0, len(X), 128):
        idx = perm[i:i + 128]
        loss = nn.functional.mse_loss(model(X[idx]), Y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(f"train mse {loss.item():.4f}")

# ---- forecast the next week per series and hand it over per store/product ----
forecasts = []
with torch.no_grad():
    for s in series:
        y = s.values()[:, 0]
        scale = y[:-OUT_LEN].mean()
        x_static = (s.static_covariates.to_numpy(dtype=np.float32)[0] - static_mean) / static_std
        pred = model(torch.tensor(np.concatenate([y[-IN_LEN:] / scale, x_static]))[None])[0] * scale
        ids = s.static_covariates.iloc[0]
        for h, units in enumerate(pred.tolist()):
            forecasts.append({"id_store": int(ids["id_store"]), "id_product": int(ids["id_product"]),
                              "target_date": s.time_index[-1] + pd.Timedelta(days=h + 1), "units": units})
forecast_df = pd.DataFrame(forecasts)
joined = forecast_df.merge(catalogue, on="id_product", how="left")
unmatched = joined["name"].isna().sum()
print(f"{unmatched} of {len(joined)} forecast rows matched no catalogue product")
print("product ids in the forecast:", sorted(int(i) for i in forecast_df.id_product.unique()))
print("product ids in the catalogue:", sorted(int(i) for i in catalogue.id_product))
joined.to_csv(os.path.join(out_dir, "forecast_next_week.csv"), index=False)
