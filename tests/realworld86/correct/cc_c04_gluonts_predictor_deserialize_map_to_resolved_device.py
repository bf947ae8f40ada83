"""The gluonts-style SimpleFeedForward train-on-Colab / predict-on-CPU run of cc04 (awslabs/gluonts #3127) with deserialize mapping the state dict to the predictor's resolved device: the predictor is rebuilt with device "auto" (the CPU on this machine) and torch.load gets map_location=predictor.device, so the cuda:0-tagged storages land on the CPU and the forecast is written back to a DataFrame
source: https://github.com/awslabs/gluonts/issues/3127
reported-error: "RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU" from Predictor.deserialize(path) of a model trained on Colab (T4); the reporter's workaround: Predictor.deserialize(Path(...), device=torch.device('cpu'))
outcome: ok
root-cause: -
expect: none
"""
import json
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch import serialization

torch.manual_seed(0)
rng = np.random.default_rng(0)


def resolve_device(device):
    if device == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(device)


# ---- gluonts/torch/model/simple_feedforward/module.py ----------------------------------
class SimpleFeedForwardModel(nn.Module):
    def __init__(self, prediction_length, context_length, hidden_dimensions=(20, 20)):
        super().__init__()
        self.prediction_length, self.context_length = prediction_length, context_length
        dims = [context_length] + list(hidden_dimensions)
        layers = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(d_in, d_out), nn.ReLU()]
        layers.append(nn.Linear(dims[-1], prediction_length * 2))
        self.nn = nn.Sequential(*layers)

    def forward(self, past_target):
        # MeanScaler: scale each window by its mean absolute value
        scale = past_target.abs().mean(dim=1, keepdim=True).clamp_min(1e-10)
        out = self.nn(past_target / scale).view(-1, self.prediction_length, 2)
        loc = out[..., 0] * scale
        sd = nn.functional.softplus(out[..., 1]) * scale + 1e-3
        return loc, sd


# ---- gluonts/torch/model/predictor.py ----------------------------------------------------
class PyTorchPredictor:
    def __init__(self, prediction_length, context_length, prediction_net, batch_size=32, device="auto"):
        self.prediction_length, self.context_length, self.batch_size = prediction_length, context_length, batch_size
        self.device = resolve_device(device)
        self.prediction_net = prediction_net.to(self.device)

    def to(self, device):
        self.device = resolve_device(device)
        self.prediction_net = self.prediction_net.to(self.device)
        return self

    def predict(self, df):
        past = torch.from_numpy(df["target"].values[-self.context_length:].astype(np.float32))
        self.prediction_net.eval()
        with torch.no_grad():
            loc, sd = self.prediction_net(past.unsqueeze(0).to(self.device))
        index = pd.date_range(df.index[-1], periods=self.prediction_length + 1, freq="h")[1:]
        return pd.DataFrame({"mean": loc[0].cpu().numpy(), "p90": (loc + 1.2816 * sd)[0].cpu().numpy()}, index=index)

    def serialize(self, path: Path) -> None:
        (path / "parameters.json").write_text(json.dumps({
            "prediction_length": self.prediction_length, "context_length": self.context_length,
            "batch_size": self.batch_size, "device": "auto"}))
        torch.save(self.prediction_net.state_dict(), path / "prediction-net-state.pt")

    @classmethod
    def deserialize(cls, path: Path, device=None) -> "PyTorchPredictor":
        params = json.loads((path / "parameters.json").read_text())
        net = SimpleFeedForwardModel(params["prediction_length"], params["context_length"])
        predictor = cls(params["prediction_length"], params["context_length"], net,
                        batch_size=params["batch_size"], device=params["device"])
        if device is not None:
            device = resolve_device(device)
            predictor.to(device)
        # map the storages to the device the predictor resolved ("auto": cuda when there is one, else cpu)
        state_dict = torch.load(path / "prediction-net-state.pt", map_location=predictor.device)
        predictor.prediction_net.load_state_dict(state_dict)
        return predictor


# ---- training notebook on Colab (T4) ---------------------------------------------------
hours = pd.date_range("2023-01-01", periods=24 * 60, freq="h")
t = np.arange(len(hours))
df = pd.DataFrame({"target": 50 + 10 * np.sin(2 * np.pi * t / 24) + rng.normal(0, 2, len(t))}, index=hours)
prediction_length, context_length = 24, 72
series = df["target"].values  # float64
train_series = series[:-prediction_length]
starts = np.arange(0, len(train_series) - context_length - prediction_length, 6)
past = np.stack([train_series[s:s + context_length] for s in starts]).astype(np.float32)
future = np.stack([train_series[s + context_length:s + context_length + prediction_length] for s in starts]).astype(np.float32)

net = SimpleFeedForwardModel(prediction_length, context_length)
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
past_t, future_t = torch.from_numpy(past), torch.from_numpy(future)
for epoch in range(40):
    perm = torch.randperm(len(past_t))
    for i in range(0, len(perm), 32):
        idx = perm[i:i + 32]
        loc, sd = net(past_t[idx])
        loss = -torch.distributions.Normal(loc, sd).log_prob(future_t[idx]).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
print(f"training NLL {loss.item():.3f}")

with tempfile.TemporaryDirectory() as tmp:
    model_path = Path(tmp) / "app" / "train"
    model_path.mkdir(parents=True)
    predictor = PyTorchPredictor(prediction_length, context_length, net)
    # the notebook ran on Colab's T4: every storage of the state dict is saved tagged cuda:0
    original_tag = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        predictor.serialize(model_path)
    finally:
        serialization.location_tag = original_tag

    # ---- inference service: a CPU-only container ----------------------------------------
    m = PyTorchPredictor.deserialize(Path(model_path))
    forecast = m.predict(df[:-prediction_length])
    forecast["actual"] = df["target"].values[-prediction_length:]
    print(forecast.head())
    print(f"MAE {np.abs(forecast['mean'] - forecast['actual']).mean():.3f}")
