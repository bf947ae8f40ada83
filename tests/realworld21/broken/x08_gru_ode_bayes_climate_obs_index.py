"""GRU-ODE-Bayes on sparse climate station series: the pandas observation table is merged with a station index and the ID column becomes float64 (NaN-capable), the collate function turns it into a tensor as is, and the model selects the hidden states of observed stations with p[i_obs], a float index
source: https://github.com/edebrouwer/gru_ode_bayes/issues/7
reported-error: IndexError: tensors used as indices must be long, byte or bool tensors (p_obs = p[i_obs] when running climate.gruode.py; fix: i_obs = i_obs.to(torch.long))
outcome: IndexError: tensors used as indices must be long, int, byte or bool tensors at line 44
root-cause: line 27
expect: DG005
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- data_utils.py
def make_observations(n_stations=6, n_times=10, n_vars=3, seed=0):
    rng = np.random.default_rng(seed)
    rows = [(s, t * 0.5, *rng.normal(size=n_vars)) for s in range(n_stations) for t in range(n_times) if rng.random() < 0.6]
    obs = pd.DataFrame(rows, columns=["ID", "Time"] + [f"Value_{k}" for k in range(n_vars)])
    obs["qc_flag"] = (rng.random(len(obs)) < 0.1).astype(int)
    obs["ID"] = obs["ID"].where(obs["qc_flag"] == 0)
    return obs.dropna(subset=["ID"]), n_stations


def collate_at_time(df, t):
    at_t = df[df["Time"] == t]
    values = torch.tensor(at_t.filter(like="Value_").to_numpy(np.float32))
    i_obs = torch.tensor(at_t["ID"].to_numpy())  # root-cause
    return i_obs, values


# ---- models.py
class GRUODEBayesLite(nn.Module):
    def __init__(self, n_vars=3, hidden=16):
        super().__init__()
        self.ode = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
        self.p_model = nn.Linear(hidden, 2 * n_vars)
        self.gru_obs = nn.GRUCell(2 * n_vars, hidden)

    def step(self, h, dt):
        return h + dt * self.ode(h)

    def update(self, h, i_obs, x_obs):
        p = self.p_model(h)
        p_obs = p[i_obs]  # fails-here
        mean, logvar = p_obs.chunk(2, dim=1)
        loss = 0.5 * (((x_obs - mean) ** 2) / logvar.exp() + logvar).sum()
        h = h.clone()
        h[i_obs] = self.gru_obs(torch.cat([x_obs, mean], dim=1), h[i_obs])
        return h, loss


def train(epochs=2):
    df, n_ids = make_observations()
    model = GRUODEBayesLite()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    times = sorted(df["Time"].dropna().unique())
    for epoch in range(epochs):
        h, t_prev, total = torch.zeros(n_ids, 16), 0.0, 0.0
        for t in times:
            h = model.step(h, t - t_prev)
            i_obs, x_obs = collate_at_time(df, t)
            h, loss = model.update(h, i_obs, x_obs)
            total, t_prev = total + loss, t
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
        print(f"epoch {epoch}: nll {total.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
