"""Stock-price LSTM whose make_windows() z-scores the close series with float64 NumPy statistics and cuts windows with np.lib.stride_tricks.sliding_window_view; torch.from_numpy keeps float64 and the float32 nn.LSTM refuses the batch
source: https://github.com/jeffheaton/t81_558_deep_learning/pull/3
reported-error: float64 error in the stock-exchange LSTM example (windows built from a float64 NumPy series)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 33
root-cause: line 23
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


def synthetic_close(n=300, seed=3):
    rng = np.random.default_rng(seed)
    return 100 + np.cumsum(rng.normal(0, 1, n))


def make_windows(close, window=20):
    mu, sigma = close.mean(), close.std()
    z = (close - mu) / sigma
    windows = np.lib.stride_tricks.sliding_window_view(z, window + 1)
    x, y = windows[:, :-1, None], windows[:, -1:]
    return torch.from_numpy(np.ascontiguousarray(x)), torch.from_numpy(np.ascontiguousarray(y))  # root-cause


class StockLSTM(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)  # fails-here
        return self.fc(out[:, -1])


def fit(model, x, y, epochs=3, bs=64):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        perm = torch.randperm(len(x))
        for s in range(0, len(x), bs):
            idx = perm[s:s + bs]
            loss = nn.functional.mse_loss(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: mse {loss.item():.4f}")


if __name__ == "__main__":
    x, y = make_windows(synthetic_close())
    fit(StockLSTM(), x, y)
