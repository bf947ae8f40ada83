"""A darts-style RNNModel trained on a monthly passengers series, saved with TorchForecastingModel.save() and reloaded with RNNModel.load() (re-typed: the TFM wrapper holding its model_params, a NumPy RandomState from @random_method and the module path of its PLForecastingModule, __getstate__ dropping model and trainer, save() writing the wrapper with torch.save plus a Lightning-style .ckpt, load() reading the wrapper back and restoring the module from the .ckpt): under the weights-only default the wrapper file is refused
source: https://github.com/unit8co/darts/pull/2658
reported-error: "Fixes failing TorchForecastingModel load methods from pytorch>=2.6.0. PyTorch changed the default value of `weights_only` from `False` to `True`." (users saw `_pickle.UnpicklingError: Weights only load failed ... Unsupported global` from TorchForecastingModel.load / load_from_checkpoint)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.RNNModel was not an allowed global by default. ... at line 116
root-cause: line 116
expect: DG011
"""
import os
import sys
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(42)


# ---- darts/models/forecasting/rnn_model.py: the PLForecastingModule -------------------
class _RNNModule(nn.Module):
    def __init__(self, name, input_size, hidden_dim, num_layers, target_size, dropout=0.0):
        super().__init__()
        self.name = name
        self.rnn = getattr(nn, name)(input_size, hidden_dim, num_layers, batch_first=True, dropout=dropout)
        self.V = nn.Linear(hidden_dim, target_size)

    def forward(self, x_in, h=None):
        out, last_hidden_state = self.rnn(x_in, h)
        return self.V(out), last_hidden_state


# ---- darts/models/forecasting/torch_forecasting_model.py ------------------------------
class RNNModel:
    def __init__(self, model="LSTM", hidden_dim=25, n_rnn_layers=1, training_length=24,
                 input_chunk_length=12, n_epochs=30, batch_size=16, random_state=42):
        self.model_params = dict(model=model, hidden_dim=hidden_dim, n_rnn_layers=n_rnn_layers,
                                 training_length=training_length, input_chunk_length=input_chunk_length,
                                 n_epochs=n_epochs, batch_size=batch_size, random_state=random_state)
        # @random_method: every TFM keeps a NumPy RandomState seeded by random_state
        self._random_instance = np.random.RandomState(random_state)
        self._module_path, self._module_name = __name__, "_RNNModule"
        self.training_series = None
        self.model = None
        self.trainer = None
        self._fit_called = False

    def __getstate__(self):
        # the PyTorch LightningModule and the Trainer are saved in the .ckpt, not with the wrapper
        return {k: v for k, v in self.__dict__.items() if k not in ("model", "trainer")}

    def __setstate__(self, d):
        self.__dict__.update(d)
        self.model = None
        self.trainer = None

    def _create_module(self):
        p = self.model_params
        return getattr(sys.modules[self._module_path], self._module_name)(
            p["model"], input_size=1, hidden_dim=p["hidden_dim"], num_layers=p["n_rnn_layers"], target_size=1)

    def fit(self, series):
        p = self.model_params
        torch.manual_seed(self._random_instance.randint(0, high=2**31 - 1))
        self.training_series = series
        values = torch.from_numpy(series.values.astype(np.float32)).unsqueeze(-1)
        L = p["training_length"]
        samples = torch.stack([values[i:i + L + 1] for i in range(len(values) - L)])
        self.model = self._create_module()
        optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        for epoch in range(p["n_epochs"]):
            perm = torch.randperm(len(samples))
            for i in range(0, len(samples), p["batch_size"]):
                batch = samples[perm[i:i + p["batch_size"]]]
                out, _ = self.model(batch[:, :-1])
                loss = nn.functional.mse_loss(out, batch[:, 1:])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        self.trainer = object()  # the Lightning Trainer used for fitting
        self._fit_called = True
        print(f"fit: final train MSE {loss.item():.5f}")
        return self

    def predict(self, n):
        values = torch.from_numpy(self.training_series.values.astype(np.float32)).view(1, -1, 1)
        self.model.eval()
        with torch.no_grad():
            out, h = self.model(values)
            preds, x = [], out[:, -1:]
            for _ in range(n):
                preds.append(x.item())
                out, h = self.model(x, h)
                x = out
        index = pd.date_range(self.training_series.index[-1], periods=n + 1, freq="MS")[1:]
        return pd.Series(preds, index=index, name="forecast")

    def save(self, path):
        # save the TorchForecastingModel (does not save the PyTorch LightningModule, and Trainer)
        with open(path, "wb") as f_out:
            torch.save(self, f_out)  # root-cause-alt
        # save the LightningModule checkpoint
        torch.save({"state_dict": self.model.state_dict(), "hyper_parameters": dict(self.model_params),
                    "epoch": self.model_params["n_epochs"]}, path + ".ckpt")

    def _load_from_checkpoint(self, file_path, map_location=None):
        ckpt = torch.load(file_path, map_location=map_location)
        module = self._create_module()
        module.load_state_dict(ckpt["state_dict"])
        return module

    @staticmethod
    def load(path, **kwargs):
        # load the base TorchForecastingModel (does not contain the actual PyTorch LightningModule)
        with open(path, "rb") as fin:
            model = torch.load(fin, map_location=kwargs.get("map_location", None))  # root-cause  # fails-here
        path_ptl_ckpt = path + ".ckpt"
        if os.path.exists(path_ptl_ckpt):
            model.model = model._load_from_checkpoint(path_ptl_ckpt, **kwargs)
        else:
            model._fit_called = False
        return model


# ---- user script: train, save, reload in the serving job, forecast one year ------------
months = pd.date_range("1949-01-01", periods=144, freq="MS")
t = np.arange(144)
passengers = (110 + 2.4 * t) * (1 + 0.2 * np.sin(2 * np.pi * t / 12)) + np.random.default_rng(0).normal(0, 5, 144)
df = pd.DataFrame({"Month": months, "#Passengers": passengers})
series = df.set_index("Month")["#Passengers"]
train, val = series[:-12], series[-12:]
scale_mean, scale_std = train.mean(), train.std()   # the user's Scaler: fit on train only
train_scaled = (train - scale_mean) / scale_std

model = RNNModel(model="LSTM", hidden_dim=20, n_rnn_layers=1, training_length=20, input_chunk_length=14,
                 n_epochs=8, random_state=42)
model.fit(train_scaled)

with tempfile.TemporaryDirectory() as work_dir:
    path = os.path.join(work_dir, "rnn_passengers.pt")
    model.save(path)
    model_loaded = RNNModel.load(path, map_location="cpu")
    forecast = model_loaded.predict(n=12) * scale_std + scale_mean
    result = pd.DataFrame({"actual": val.values, "forecast": forecast.values}, index=val.index)
    print(result.head())
    print(f"validation MAPE {100 * np.mean(np.abs(result.actual - result.forecast) / result.actual):.2f}%")
