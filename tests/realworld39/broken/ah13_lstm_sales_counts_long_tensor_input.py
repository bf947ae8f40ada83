"""Monthly sales forecasting with a two-layer LSTM over integer unit counts (pytorch issue #99998: `lstm = torch.nn.LSTM(1, 200, 2, batch_first=True); input = torch.zeros(20, 36, 1).long(); lstm(input, None)`, a batch of 20 series of 36 steps given to the LSTM as an int64 tensor; the reporter asked for a clearer message than "expected scalar type Long but found Float"): the windows are cut from a pandas pivot of integer unit counts, so torch.from_numpy makes an int64 batch and the float32 LSTM refuses it
source: https://github.com/pytorch/pytorch/issues/99998
reported-error: RuntimeError: expected scalar type Long but found Float (for an int64 input to nn.LSTM(1, 200, 2, batch_first=True); "misleading because the solution is to pass input as float tensor"; since the fix the RNN checks the input dtype first)
outcome: ValueError: RNN input dtype (torch.int64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.int64) at line 24
root-cause: line 57
expect: DG005
"""
import io

import numpy as np
import pandas as pd

import torch
import torch.nn as nn


class SalesLSTM(nn.Module):
    def __init__(self, input_size=1, hidden_size=200, num_layers=2):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.head = nn.Linear(hidden_size, 1)

    def forward(self, x, hidden=None):
        out, hidden = self.lstm(x, hidden)  # fails-here
        return self.head(out[:, -1, :]), hidden


def load_sales_csv(n_stores=20, n_months=48, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for store in range(n_stores):
        base = rng.integers(20, 60)
        for month in range(n_months):
            units = int(max(0, base + 10 * np.sin(2 * np.pi * month / 12) + rng.normal(0, 4)))
            rows.append({"store": f"S{store:02d}", "month": f"{2020 + month // 12}-{month % 12 + 1:02d}", "units": units})
    return pd.read_csv(io.StringIO(pd.DataFrame(rows).to_csv(index=False)))


def make_windows(sales, seq_len=36):
    # one row per store, one column per month, integer unit counts
    table = sales.pivot(index="store", columns="month", values="units").sort_index(axis=1)
    values = table.to_numpy()
    xs, ys = [], []
    for start in range(values.shape[1] - seq_len):
        xs.append(values[:, start:start + seq_len])
        ys.append(values[:, start + seq_len])
    x = np.stack(xs)[..., np.newaxis]            # (windows, stores, seq_len, 1)
    y = np.stack(ys)[..., np.newaxis]
    return x, y


def train(model, x, y, epochs=2, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        for i in range(len(x)):
            batch = torch.from_numpy(x[i])  # root-cause
            target = torch.from_numpy(y[i]).float()
            pred, _ = model(batch, None)
            loss = loss_fn(pred, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    sales = load_sales_csv()
    x, y = make_windows(sales)
    print("windows:", x.shape, x.dtype)
    train(SalesLSTM(1, 200, 2), x, y)
