"""The orbit-style LGT + Pyro MAP fit of cc02 (uber/orbit #54) with the fix of commit db19228 (PR #70, "change all default type to torch.double"): LGTModel.__init__ makes its data tensors float64, so the MAP regression coefficients come back float64 like the regressor columns of the prediction DataFrame, and predict writes its forecast back to the DataFrame
source: https://github.com/uber/orbit/issues/54
reported-error: "RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #2 'mat2' in call to _th_mm" at lgt.py `regressor_component = torch.matmul(regressor_torch, regressor_beta)` in lgt_reg_map.predict(df=df, decompose=True)
outcome: ok
root-cause: -
expect: none
"""
from copy import deepcopy

import numpy as np
import pandas as pd
import torch
import torch.distributions as dist

# orbit/pyro/lgt.py sets the default tensor type to torch.DoubleTensor at import: the scalars of
# the model (smoothing bounds, priors given as Python floats) are float64
torch.set_default_dtype(torch.float64)
torch.manual_seed(8888)
np.random.seed(8888)


# ---- orbit/pyro/lgt.py ----------------------------------------------------------------
class LGTModel:
    def __init__(self, data):
        for key, value in data.items():
            key = key.lower()
            if isinstance(value, (list, np.ndarray)):
                value = torch.tensor(value, dtype=torch.double)
            self.__dict__[key] = value

    def sites(self):
        """The latent sites and their priors (AutoDelta starts each point estimate at the prior's median)."""
        return {
            "lev_sm": dist.Uniform(self.lev_sm_min, self.lev_sm_max),
            "slp_sm": dist.Uniform(self.slp_sm_min, self.slp_sm_max),
            "obs_sigma": dist.HalfCauchy(self.cauchy_sd),
            "rr_beta": dist.Normal(self.rr_beta_prior, self.rr_sigma_prior),
        }

    def log_joint(self, v):
        response, num_of_obs = self.response, self.num_of_obs
        lp = sum(d.log_prob(v[name]).sum() for name, d in self.sites().items())
        rr = self.rr_mat @ v["rr_beta"]
        b = [torch.zeros_like(v["slp_sm"])]
        l = [(response[0] - rr[0]).expand_as(b[0])]
        for t in range(1, num_of_obs):
            l.append(v["lev_sm"] * (response[t] - rr[t]) + (1 - v["lev_sm"]) * l[t - 1])
            b.append(v["slp_sm"] * (l[t] - l[t - 1]) + (1 - v["slp_sm"]) * b[t - 1])
        l, b = torch.stack(l), torch.stack(b)
        yhat = l[:-1] + b[:-1] + rr[1:]
        lp = lp + dist.Normal(yhat, v["obs_sigma"]).log_prob(response[1:]).sum()
        return lp, l, b


# ---- orbit/pyro/wrapper.py: MAP with an AutoDelta-like guide ---------------------------
def _init_value(d):
    if isinstance(d, dist.Uniform):
        return (d.low + d.high) / 2
    if isinstance(d, dist.HalfCauchy):
        return d.scale
    return d.mean


def pyro_map(data, seed, num_steps=101, learning_rate=0.1, verbose=True):
    torch.manual_seed(seed)
    model = LGTModel(data)
    sites = model.sites()
    # AutoDelta: one point estimate per site, of the dtype of the site's prior
    unconstrained = {name: dist.biject_to(d.support).inv(_init_value(d)).detach().clone().requires_grad_()
                     for name, d in sites.items()}
    optim = torch.optim.Adam(unconstrained.values(), lr=learning_rate, betas=(0.5, 0.8))
    for step in range(num_steps):
        optim.zero_grad()
        values = {name: dist.biject_to(sites[name].support)(u) for name, u in unconstrained.items()}
        loss = -model.log_joint(values)[0]
        loss.backward()
        optim.step()
        if verbose and step % 50 == 0:
            print("step {: >4d} loss = {:0.5g}".format(step, loss.item()))
    values = {name: dist.biject_to(sites[name].support)(u) for name, u in unconstrained.items()}
    _, l, b = model.log_joint(values)
    values.update({"l": l, "b": b})
    # Convert from torch.Tensors to numpy.ndarrays.
    return {name: value.detach().numpy() for name, value in values.items()}


# ---- orbit/lgt.py ---------------------------------------------------------------------
class LGT:
    def __init__(self, response_col, date_col, regressor_col, num_steps=101):
        self.response_col, self.date_col, self.regressor_col = response_col, date_col, regressor_col
        self.regular_regressor_col = list(regressor_col)
        self.num_steps = num_steps

    def fit(self, df):
        self.training_df_meta = {"date_array": pd.to_datetime(df[self.date_col]).reset_index(drop=True),
                                 "df_length": len(df.index)}
        data = {
            "RESPONSE": df[self.response_col].values,
            "NUM_OF_OBS": len(df),
            "RR_MAT": df.filter(items=self.regular_regressor_col).values,
            "RR_BETA_PRIOR": [0.0] * len(self.regular_regressor_col),
            "RR_SIGMA_PRIOR": [1.0] * len(self.regular_regressor_col),
            "LEV_SM_MIN": 0.01, "LEV_SM_MAX": 1.0, "SLP_SM_MIN": 0.01, "SLP_SM_MAX": 1.0,
            "CAUCHY_SD": float(df[self.response_col].std()),
        }
        self._posterior_state = pyro_map(data, seed=8888, num_steps=self.num_steps)
        return self

    def _predict(self, df):
        model = deepcopy(self._posterior_state)
        for k, v in model.items():
            model[k] = torch.from_numpy(v)
        regressor_beta = model["rr_beta"].reshape(1, -1)
        trained_len = self.training_df_meta["df_length"]
        output_len = len(df.index)

        # Regression Component
        regressor_beta = regressor_beta.t()
        regressor_matrix = df[self.regressor_col].values
        regressor_torch = torch.from_numpy(regressor_matrix)
        regressor_component = torch.matmul(regressor_torch, regressor_beta)
        regressor_component = regressor_component.t()

        # Trend Component: last level plus slope times the steps ahead
        steps = torch.arange(1, output_len + 1, dtype=torch.double)
        trend_component = model["l"][trained_len - 1] + model["b"][trained_len - 1] * steps
        return (trend_component + regressor_component).reshape(-1)

    def predict(self, df):
        out = df[[self.date_col]].copy()
        out["prediction"] = self._predict(df).numpy()
        return out


# ---- the iclaims example: weekly log claims with three Google-trends regressors ----------
weeks = pd.date_range("2010-01-03", periods=120, freq="W-SUN")
t = np.arange(len(weeks))
raw_df = pd.DataFrame({
    "week": weeks,
    "trend.unemploy": 0.3 * np.sin(t / 8) + 0.05 * np.random.randn(len(t)),
    "trend.filling": 0.2 * np.cos(t / 5) + 0.05 * np.random.randn(len(t)),
    "trend.job": 0.1 * np.random.randn(len(t)),
})
raw_df["claims"] = 13.0 - 0.004 * t + 0.5 * raw_df["trend.unemploy"] + 0.2 * raw_df["trend.filling"] \
    + 0.03 * np.random.randn(len(t))

test_size = 12
train_df, test_df = raw_df[:-test_size], raw_df[-test_size:]
lgt_reg_map = LGT(response_col="claims", date_col="week",
                  regressor_col=["trend.unemploy", "trend.filling", "trend.job"], num_steps=101)
lgt_reg_map.fit(df=train_df)
predicted_df = lgt_reg_map.predict(df=test_df)
mae = np.abs(predicted_df["prediction"].values - test_df["claims"].values).mean()
print(predicted_df.head(5))
print(f"test MAE {mae:.4f}")
