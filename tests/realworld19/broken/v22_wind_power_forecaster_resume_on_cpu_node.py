"""Wind-power forecaster with a Trainer class: the GPU job saved {'model','optimizer','epoch','scaler_mean','scaler_std'} every epoch; the evaluation job on a CPU node calls Trainer.load_checkpoint(), which uses torch.load(path) without map_location (the forum poster assumed torch.load maps to whatever device is available)
source: https://discuss.pytorch.org/t/saving-and-loading-models-across-devices/177391
reported-error: question: a model saved on cuda:0 and loaded without map_location still works on a GPU box; answer: without map_location torch.load restores to the device it was saved from (fails where that device does not exist)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 54
root-cause: line 54
expect: DG010
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch import serialization


def make_frame(hours=500, seed=0):
    rng = np.random.default_rng(seed)
    wind = np.clip(8 + 3 * np.sin(np.arange(hours) / 24 * 2 * np.pi) + rng.normal(0, 1.5, hours), 0, None)
    power = np.clip((wind / 12) ** 3, 0, 1) * 2.5 + rng.normal(0, 0.05, hours)
    return pd.DataFrame({"wind_speed": wind, "power_mw": power},
                        index=pd.date_range("2024-01-01", periods=hours, freq="h"))


class PowerLSTM(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(2, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1]).squeeze(-1)


class Trainer:
    def __init__(self, window=24):
        self.model = PowerLSTM()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.window, self.epoch = window, 0
        self.mean = self.std = None

    def windows(self, df):
        arr = ((df - self.mean) / self.std).to_numpy(dtype=np.float32)
        x = np.stack([arr[i:i + self.window] for i in range(len(arr) - self.window)])
        return torch.from_numpy(x), torch.from_numpy(arr[self.window:, 1].copy())

    def save_checkpoint(self, path):
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(), "epoch": self.epoch,
                    "scaler_mean": torch.tensor(self.mean.values), "scaler_std": torch.tensor(self.std.values)}, path)

    def load_checkpoint(self, path):
        ckpt = torch.load(path)  # root-cause  # fails-here
        self.model.load_state_dict(ckpt["model"])
        self.optimizer.load_state_dict(ckpt["optimizer"])
        self.epoch = ckpt["epoch"]
        cols = ["wind_speed", "power_mw"]
        self.mean = pd.Series(ckpt["scaler_mean"].numpy(), index=cols)
        self.std = pd.Series(ckpt["scaler_std"].numpy(), index=cols)


def gpu_job(df, path):
    trainer = Trainer()
    trainer.mean, trainer.std = df.mean(), df.std()
    trainer.epoch = 12
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        trainer.save_checkpoint(path)
    finally:
        serialization.location_tag = original


if __name__ == "__main__":
    df = make_frame()
    path = os.path.join(tempfile.mkdtemp(), "epoch_012.pt")
    gpu_job(df, path)
    evaluator = Trainer()
    evaluator.load_checkpoint(path)
    x, y = evaluator.windows(df)
    with torch.no_grad():
        mae = (evaluator.model(x) - y).abs().mean()
    print("epoch", evaluator.epoch, "val MAE (normalised)", round(mae.item(), 4))
