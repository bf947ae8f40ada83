"""Bayesian time-series forecast (uber/orbit LGT predict layout) with int64 promotion dummies as regressors, where the predict step casts the regressor matrix to double (torch.from_numpy(regressor_matrix).double(), the orbit fix) so it matches the float64 posterior coefficient samples: the whole predict path is float64 on purpose
source: https://github.com/uber/orbit/pull/133
reported-error: none (fixed version: "cast regressor matrix to double", resolves #122)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch


# ---- orbit/utils/simulation.py (synthetic weekly sales with 0/1 promotion flags)
def make_weekly_sales(n_weeks=60, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"week": pd.date_range("2021-01-03", periods=n_weeks, freq="W")})
    df["promo_tv"] = rng.integers(0, 2, n_weeks)
    df["promo_radio"] = rng.integers(0, 2, n_weeks)
    df["holiday"] = (df["week"].dt.month == 12).astype(int)
    df["sales"] = 100 + 0.5 * np.arange(n_weeks) + 8 * df["promo_tv"] + 3 * df["promo_radio"] + rng.normal(0, 2, n_weeks)
    return df


# ---- orbit/models/lgt.py
class LGTAggregated:
    def __init__(self, response_col, date_col, regressor_col, num_samples=25, seed=1):
        self.response_col = response_col
        self.date_col = date_col
        self.regressor_col = regressor_col
        self.num_samples = num_samples
        self._rng = np.random.default_rng(seed)
        self._posterior_samples = {}

    def fit(self, df):
        y = df[self.response_col].to_numpy()
        X = np.column_stack([np.ones(len(df)), np.arange(len(df)), df[self.regressor_col].to_numpy(dtype=float)])
        coef, *_ = np.linalg.lstsq(X, y, rcond=None)
        k = len(self.regressor_col)
        self._posterior_samples = {
            "lev": coef[0] + self._rng.normal(0, 0.5, self.num_samples),
            "slp": coef[1] + self._rng.normal(0, 0.01, self.num_samples),
            "rr_coef": coef[2:] + self._rng.normal(0, 0.2, (self.num_samples, k)),
        }
        return self

    def _predict(self, df):
        model = self._posterior_samples
        lev = torch.from_numpy(model["lev"]).unsqueeze(0)
        slp = torch.from_numpy(model["slp"]).unsqueeze(0)
        steps = torch.arange(len(df), dtype=torch.float64).unsqueeze(1)
        trend_component = lev + slp * steps

        regressor_beta = torch.from_numpy(model["rr_coef"]).t()
        regressor_matrix = df[self.regressor_col].values
        regressor_torch = torch.from_numpy(regressor_matrix).double()
        regressor_component = torch.matmul(regressor_torch, regressor_beta)
        return trend_component + regressor_component

    def predict(self, df, percentiles=(5, 95)):
        samples = self._predict(df).numpy()
        out = pd.DataFrame({self.date_col: df[self.date_col].values})
        out["prediction"] = np.median(samples, axis=1)
        for p in percentiles:
            out[f"prediction_{p}"] = np.percentile(samples, p, axis=1)
        return out


if __name__ == "__main__":
    df = make_weekly_sales()
    train_df, test_df = df.iloc[:48], df.iloc[48:]
    lgt = LGTAggregated(response_col="sales", date_col="week", regressor_col=["promo_tv", "promo_radio", "holiday"])
    lgt.fit(train_df)
    predicted_df = lgt.predict(test_df)
    print(predicted_df.head())
