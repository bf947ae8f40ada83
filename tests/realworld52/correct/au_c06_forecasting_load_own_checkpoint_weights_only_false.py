"""Probabilistic load forecasting for smart-meter data with a pytorch-forecasting-style DeepAR (sktime/pytorch-forecasting #1998 as in au06) with the fix of PR #2000: DeepAR.load_from_checkpoint reads the trainer's own best checkpoint with torch.load(..., weights_only=False), so the saved hyperparameters, GroupNormalizer (with its pandas per-meter center/scale table) included, are restored with the weights and the reloaded model forecasts the validation week
source: https://github.com/sktime/pytorch-forecasting/issues/1998
reported-error: (none filed; the fixed situation of au06)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(2)
ckpt_dir = tempfile.mkdtemp()

# ---- hourly consumption of a few smart meters ----
hours = np.arange(24 * 42)
frames = []
for meter in range(8):
    base = rng.uniform(0.3, 4.0)
    load = base * (1 + 0.5 * np.sin(2 * np.pi * (hours - 7) / 24) + 0.2 * np.sin(2 * np.pi * hours / 168))
    frames.append(pd.DataFrame({"meter_id": f"MT_{meter:03d}", "time_idx": hours,
                                "consumption_kw": np.maximum(load + rng.normal(0, 0.1 * base, hours.size), 0.01)}))
data = pd.concat(frames, ignore_index=True)


class GroupNormalizer:
    """Per-group (center, scale) of the target, fitted on the training frame (pytorch_forecasting.data.encoders)."""

    def __init__(self, groups=(), transformation=None):
        self.groups, self.transformation = list(groups), transformation

    def fit(self, y, X):
        stats = pd.DataFrame({"y": y}).join(X[self.groups]).groupby(self.groups, observed=True)["y"]
        self.norm_ = pd.DataFrame({"center": stats.mean(), "scale": stats.std() + 1e-8})
        return self

    def get_parameters(self, groups):
        return torch.tensor(self.norm_.loc[groups][["center", "scale"]].to_numpy(), dtype=torch.float32)

    def transform(self, y, X):
        params = self.norm_.loc[X[self.groups[0]]].to_numpy()
        return (y - params[:, 0]) / params[:, 1]


class TimeSeriesDataSet(torch.utils.data.Dataset):
    def __init__(self, data, max_encoder_length, max_prediction_length, target_normalizer):
        self.target_normalizer = target_normalizer.fit(data["consumption_kw"], data)
        self.enc_len, self.pred_len = max_encoder_length, max_prediction_length
        self.samples = []
        for meter, g in data.groupby("meter_id"):
            y = torch.tensor(self.target_normalizer.transform(g["consumption_kw"].to_numpy(), g), dtype=torch.float32)
            scale = self.target_normalizer.get_parameters(meter)
            for start in range(0, len(g) - self.enc_len - self.pred_len + 1, 12):
                self.samples.append((y[start:start + self.enc_len], y[start + self.enc_len:start + self.enc_len + self.pred_len], scale))

    def get_parameters(self):
        return {"max_encoder_length": self.enc_len, "max_prediction_length": self.pred_len}

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        return self.samples[i]


class DeepAR(nn.Module):
    def __init__(self, hidden_size=32, rnn_layers=2, learning_rate=1e-2, target_normalizer=None, dataset_parameters=None):
        super().__init__()
        self.hparams = dict(hidden_size=hidden_size, rnn_layers=rnn_layers, learning_rate=learning_rate,
                            target_normalizer=target_normalizer, dataset_parameters=dataset_parameters)
        self.rnn = nn.LSTM(1, hidden_size, rnn_layers, batch_first=True)
        self.distribution_projector = nn.Linear(hidden_size, 2)

    @classmethod
    def from_dataset(cls, dataset, **kwargs):
        return cls(target_normalizer=dataset.target_normalizer, dataset_parameters=dataset.get_parameters(), **kwargs)

    def forward(self, encoder_target, decoder_target):
        x = torch.cat([encoder_target, decoder_target[:, :-1]], dim=1).unsqueeze(-1)
        out, _ = self.rnn(x)
        loc, scale = self.distribution_projector(out[:, encoder_target.size(1) - 1:]).unbind(-1)
        return torch.distributions.Normal(loc, nn.functional.softplus(scale) + 1e-3)

    def step(self, batch):
        enc, dec, _ = batch
        return -self(enc, dec).log_prob(dec).mean()

    @classmethod
    def load_from_checkpoint(cls, checkpoint_path, map_location="cpu"):
        checkpoint = torch.load(checkpoint_path, map_location=map_location, weights_only=False)
        model = cls(**checkpoint["hyper_parameters"])
        model.load_state_dict(checkpoint["state_dict"])
        return model


training_cutoff = data["time_idx"].max() - 24 * 7
train_ds = TimeSeriesDataSet(data[data.time_idx <= training_cutoff], max_encoder_length=72, max_prediction_length=24,
                             target_normalizer=GroupNormalizer(groups=["meter_id"]))
val_ds = TimeSeriesDataSet(data[data.time_idx > training_cutoff - 72], 72, 24, GroupNormalizer(groups=["meter_id"]))
model = DeepAR.from_dataset(train_ds, hidden_size=32, rnn_layers=2, learning_rate=1e-2)
optimizer = torch.optim.Adam(model.parameters(), lr=model.hparams["learning_rate"])

# ---- Trainer with a ModelCheckpoint callback on the validation loss ----
best_val, best_model_path, global_step = float("inf"), None, 0
for epoch in range(4):
    model.train()
    for batch in torch.utils.data.DataLoader(train_ds, batch_size=32, shuffle=True):
        loss = model.step(batch)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        global_step += 1
    model.eval()
    with torch.no_grad():
        val_loss = np.mean([model.step(b).item() for b in torch.utils.data.DataLoader(val_ds, batch_size=64)])
    print(f"epoch {epoch}: train_loss {loss.item():.3f} val_loss {val_loss:.3f}")
    if val_loss < best_val:
        best_val = val_loss
        best_model_path = os.path.join(ckpt_dir, f"epoch={epoch}-step={global_step}.ckpt")
        torch.save({"epoch": epoch, "global_step": global_step, "state_dict": model.state_dict(),
                    "hyper_parameters": model.hparams,
                    "pytorch-lightning_version": "2.6.0"}, best_model_path)

net = DeepAR.load_from_checkpoint(best_model_path)
net.eval()
enc, dec, scale = next(iter(torch.utils.data.DataLoader(val_ds, batch_size=len(val_ds))))
with torch.no_grad():
    pred = net(enc, dec).mean * scale[:, 1:2] + scale[:, 0:1]
actual = dec * scale[:, 1:2] + scale[:, 0:1]
print(f"reloaded {os.path.basename(best_model_path)}: validation MAE {torch.mean(torch.abs(pred - actual)).item():.3f} kW")
