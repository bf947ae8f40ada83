"""Multivariate traffic-speed forecasting (METR-LA-style sensor graph, GRU encoder): the StandardScaler's mean and std are loaded from the stats file written during preprocessing (float64), and under NumPy 2 promotion transform() turns the float32 speed windows into float64 before torch.from_numpy
source: https://github.com/XDZhelheim/Torch-MTS
reported-error: StandardScaler(mean=arr.mean(), std=arr.std()) on float64 arrays: test_tensor_from_numpy keeps float64 while torch.FloatTensor gives float32 (a float64/float32 mismatch between the scaler and the model)
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 56
root-cause: line 39
expect: DG004
"""
import io

import numpy as np
import torch
import torch.nn as nn


# ---- lib/utils.py
class StandardScaler:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def transform(self, data):
        return (data - self.mean) / self.std

    def inverse_transform(self, data):
        return data * self.std + self.mean


def preprocess(n_steps=600, n_sensors=12, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(n_steps)[:, None]
    speed = (60 + 10 * np.sin(2 * np.pi * t / 288) + rng.normal(0, 2, (n_steps, n_sensors))).astype(np.float32)
    stats = io.BytesIO()
    np.savez(stats, mean=speed.astype(np.float64).mean(), std=speed.astype(np.float64).std())
    stats.seek(0)
    return speed, stats


def load_windows(speed, stats_file, in_steps=12, out_steps=12):
    stats = np.load(stats_file)
    scaler = StandardScaler(mean=stats["mean"], std=stats["std"])  # root-cause
    x = scaler.transform(speed)
    idx = range(len(x) - in_steps - out_steps)
    xs = np.stack([x[i:i + in_steps] for i in idx])
    ys = np.stack([speed[i + in_steps:i + in_steps + out_steps] for i in idx])
    return torch.from_numpy(xs), torch.from_numpy(ys), scaler


# ---- model/GRU.py
class GRUForecaster(nn.Module):
    def __init__(self, n_sensors=12, hidden=64, out_steps=12):
        super().__init__()
        self.gru = nn.GRU(n_sensors, hidden, batch_first=True)
        self.head = nn.Linear(hidden, out_steps * n_sensors)
        self.out_steps, self.n_sensors = out_steps, n_sensors

    def forward(self, x):
        _, h = self.gru(x)  # fails-here
        return self.head(h[-1]).view(-1, self.out_steps, self.n_sensors)


if __name__ == "__main__":
    speed, stats = preprocess()
    x, y, scaler = load_windows(speed, stats)
    model = GRUForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        pred = model(x[:256])
        loss = nn.functional.l1_loss(pred, torch.from_numpy(scaler.transform(y[:256].numpy())).float())
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch}: masked MAE {loss.item():.4f}")
