"""The tsai-style PatchTST forecast of cc05 (timeseriesAI/tsai #883) with the horizon targets cast to float32 right after SlidingWindow: nn.L1Loss now compares float32 predictions with float32 targets, the batch losses and the Recorder's smoothed loss stay float32, and the float64 DataFrame (X is still cast to float32 by the forecaster) trains for three epochs
source: https://github.com/timeseriesAI/tsai/issues/883
reported-error: "RuntimeError: Exception occured in `Recorder` when calling event `after_batch`: expected dtype double for `end` but got dtype float" at AvgSmoothLoss.accumulate `torch.lerp(to_detach(learn.loss.mean()), self.val, self.beta)` when using L1Loss in multivariate forecasting with PatchTST
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


# ---- tsai.data.preparation.SlidingWindow -------------------------------------------------
def SlidingWindow(window_len, horizon=1, get_x=None, get_y=None, stride=1):
    def _inner(df):
        X_arr = df[get_x].values          # (n_steps, n_vars), the DataFrame's dtype
        y_arr = df[get_y].values
        starts = np.arange(0, len(df) - window_len - horizon + 1, stride)
        X = np.stack([X_arr[s:s + window_len].T for s in starts])                            # (n, vars, window)
        y = np.stack([y_arr[s + window_len:s + window_len + horizon].T for s in starts])     # (n, vars, horizon)
        return X, y
    return _inner


# ---- fastai losses / tsai PatchTST ----------------------------------------------------------
class MSELossFlat(nn.Module):
    """fastai BaseLoss(nn.MSELoss, floatify=True): flattens and casts the target to float."""
    def forward(self, inp, targ):
        return nn.functional.mse_loss(inp.reshape(-1), targ.float().reshape(-1))


class PatchTST(nn.Module):
    def __init__(self, c_in, c_out, seq_len, pred_dim, patch_len=16, stride=8, d_model=32, n_heads=4):
        super().__init__()
        self.patch_len, self.stride = patch_len, stride
        n_patches = (seq_len - patch_len) // stride + 1
        self.W_P = nn.Linear(patch_len, d_model)
        self.W_pos = nn.Parameter(torch.randn(n_patches, d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.head = nn.Linear(n_patches * d_model, pred_dim)

    def forward(self, x):                                   # x: (bs, vars, seq_len)
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True) + 1e-5
        x = (x - mean) / std                                # RevIN
        bs, n_vars, _ = x.shape
        patches = x.unfold(-1, self.patch_len, self.stride)  # (bs, vars, n_patches, patch_len)
        z = self.W_P(patches).reshape(bs * n_vars, -1, self.W_P.out_features) + self.W_pos
        z = self.encoder(z).reshape(bs, n_vars, -1)
        return self.head(z) * std + mean                    # (bs, vars, horizon)


class AvgSmoothLoss:
    def __init__(self, beta=0.98):
        self.beta = beta

    def reset(self):
        self.count, self.val = 0, torch.tensor(0.)

    def accumulate(self, loss):
        self.count += 1
        self.val = torch.lerp(loss.mean().detach(), self.val, self.beta)

    @property
    def value(self):
        return self.val / (1 - self.beta ** self.count)


class TSForecaster:
    def __init__(self, X, y, splits, arch_config, bs=64, loss_func=None, lr=1e-3):
        self.X = torch.from_numpy(X.astype(np.float32))     # TSTensor: X is always float32
        self.y = torch.from_numpy(y)                         # y as given
        self.splits = splits
        self.bs = bs
        self.model = PatchTST(X.shape[1], y.shape[1], X.shape[-1], y.shape[-1], **arch_config)
        self.loss_func = loss_func if loss_func is not None else MSELossFlat()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=lr)
        self.smooth_loss = AvgSmoothLoss()

    def fit_one_cycle(self, n_epoch):
        self.smooth_loss.reset()
        train_idx = torch.tensor(self.splits[0])
        for epoch in range(n_epoch):
            self.model.train()
            for i in range(0, len(train_idx), self.bs):
                idx = train_idx[torch.randperm(len(train_idx))[:self.bs]]
                xb, yb = self.X[idx], self.y[idx]
                pred = self.model(xb)
                self.loss = self.loss_func(pred, yb)
                self.loss.backward()
                self.opt.step()
                self.opt.zero_grad()
                self.smooth_loss.accumulate(self.loss)      # Recorder.after_batch
            valid_loss = self.validate()
            print(f"epoch {epoch}  train_loss {self.smooth_loss.value.item():.4f}  valid_loss {valid_loss:.4f}")

    def validate(self):
        self.model.eval()
        idx = torch.tensor(self.splits[1])
        with torch.no_grad():
            return self.loss_func(self.model(self.X[idx]), self.y[idx]).item()


# ---- user script: ETTh1-like multivariate frame, predict all variables 24 h ahead ----------
hours = pd.date_range("2016-07-01", periods=1500, freq="h")
t = np.arange(len(hours))
df = pd.DataFrame({
    "date": hours,
    "HUFL": 5 + 2 * np.sin(2 * np.pi * t / 24) + rng.normal(0, 0.3, len(t)),
    "MUFL": 1.5 + np.sin(2 * np.pi * t / 24 + 1) + rng.normal(0, 0.2, len(t)),
    "LUFL": 3 + 0.5 * np.cos(2 * np.pi * t / 168) + rng.normal(0, 0.2, len(t)),
    "OT": 20 + 3 * np.sin(2 * np.pi * t / 24 - 2) + 0.002 * t + rng.normal(0, 0.5, len(t)),
})
cols = ["HUFL", "MUFL", "LUFL", "OT"]
X, y = SlidingWindow(96, horizon=24, get_x=cols, get_y=cols, stride=4)(df)
y = y.astype(np.float32)  # the targets the loss sees must match the float32 predictions
n = len(X)
splits = (list(range(int(0.8 * n))), list(range(int(0.8 * n), n)))

arch_config = dict(patch_len=16, stride=8, d_model=32, n_heads=4)
learn = TSForecaster(X, y, splits=splits, arch_config=arch_config, bs=64,
                     loss_func=nn.L1Loss())
learn.fit_one_cycle(3)
