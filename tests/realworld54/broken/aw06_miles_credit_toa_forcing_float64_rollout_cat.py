"""Multi-step (rollout) training of a CREDIT-style global weather emulator with top-of-atmosphere solar forcing (NCAR/miles-credit PR #51): inside the training loop, after each autoregressive step the trainer asks credit.solar.TOADataLoader for the TOA forcing of the next hour; the forcing file stores tsi in float64 and the loader returns torch.tensor(selected_tsi.to_numpy()), so torch.cat([x, toa], dim=1) promotes the rolled-out state to float64 and the next call of the float32 model fails
source: https://github.com/NCAR/miles-credit/pull/51
reported-error: "TOA original data is saved in float64/double; this commit converts it to float32 required in Pytorch training" (PR #51: TOADataLoader returns torch.tensor(...).unsqueeze(0).float())
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 95
root-cause: line 52
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
data_dir = tempfile.mkdtemp()

# --- synthetic 1-hourly reanalysis (4 upper-air levels of U, V, T + surface t2m) and a TOA forcing file ---
times = pd.date_range("2019-01-01", periods=24 * 20, freq="1h")
lat = np.linspace(-88.59, 88.59, 32)
lon = np.linspace(0, 354.375, 64)
n_levels, upper_vars = 4, ["U", "V", "T"]
upper = rng.normal(0, 1, (len(times), len(upper_vars), n_levels, 32, 64)).astype(np.float32)
surface = rng.normal(0, 1, (len(times), 1, 32, 64)).astype(np.float32)
np.savez(os.path.join(data_dir, "era5_2019.npz"), upper=upper, surface=surface, time=times.values)
static = np.stack([(rng.random((32, 64)) > 0.7), np.abs(rng.normal(0, 1, (32, 64)))]).astype(np.float32)
np.save(os.path.join(data_dir, "static.npy"), static)

toa_times = pd.date_range("2019-01-01", periods=24 * 365, freq="1h")
decl = np.deg2rad(23.44) * np.sin(2 * np.pi * (toa_times.day_of_year.values - 81) / 365.0)
hour_angle = np.deg2rad(15.0 * (toa_times.hour.values[:, None] - 12) + lon[None, :])
cos_zen = (np.sin(np.deg2rad(lat))[None, :, None] * np.sin(decl)[:, None, None]
           + np.cos(np.deg2rad(lat))[None, :, None] * np.cos(decl)[:, None, None] * np.cos(hour_angle)[:, None, :])
tsi = 1361.0 * 3600.0 * np.clip(cos_zen, 0, None)  # J m-2 per hour, float64 as written by the solar pre-processing
np.savez(os.path.join(data_dir, "TOA_forcing_2019.npz"), tsi=tsi, time=toa_times.values)


class TOADataLoader:
    """credit.solar.TOADataLoader."""

    def __init__(self, path):
        toa = np.load(path)
        self.tsi, self.times_b = toa["tsi"], pd.to_datetime(toa["time"])
        self.days_of_year, self.hours_of_day = self.times_b.day_of_year, self.times_b.hour

    def __call__(self, datetime_input):
        mask_toa = (self.days_of_year == datetime_input.day_of_year) & (self.hours_of_day == datetime_input.hour)
        selected_tsi = self.tsi[mask_toa] / 2540585.74
        return torch.tensor(selected_tsi).unsqueeze(0)  # root-cause


class ERA5Dataset(Dataset):
    """One-step samples; ToTensor returns float32 tensors, TOA of the input hour from the same forcing file."""

    def __init__(self, path, toa_path, forecast_len):
        d = np.load(path)
        self.upper, self.surface, self.time = d["upper"], d["surface"], pd.to_datetime(d["time"])
        self.forecast_len = forecast_len
        toa = np.load(toa_path)
        self.toa_tsi, self.toa_index = toa["tsi"], {t: i for i, t in enumerate(pd.to_datetime(toa["time"]))}
        self.static = np.load(os.path.join(data_dir, "static.npy"))

    def __len__(self):
        return len(self.time) - self.forecast_len - 1

    def __getitem__(self, i):
        j = i + 1 + self.forecast_len
        return {
            "x": torch.from_numpy(self.upper[i:i + 1]), "x_surf": torch.from_numpy(self.surface[i:i + 1]),
            "y": torch.from_numpy(self.upper[j:j + 1]), "y_surf": torch.from_numpy(self.surface[j:j + 1]),
            "static": torch.from_numpy(self.static),
            "TOA": torch.as_tensor(self.toa_tsi[self.toa_index[self.time[i]]] / 2540585.74, dtype=torch.float32).unsqueeze(0),
            "datetime": int(self.time[i].value),
        }


class Emulator(nn.Module):
    def __init__(self, channels, levels, surface, static_channels=2, toa_channels=1, hidden=48):
        super().__init__()
        self.out_channels = channels * levels + surface
        in_channels = self.out_channels + static_channels + toa_channels
        self.encoder = nn.Sequential(nn.Conv2d(in_channels, hidden, 3, padding=1), nn.GELU(),
                                     nn.Conv2d(hidden, hidden, 3, padding=1), nn.GELU())
        self.decoder = nn.Conv2d(hidden, self.out_channels, 3, padding=1)

    @staticmethod
    def concat_and_reshape(x1, x2):  # (B, T, V, L, H, W), (B, T, S, H, W) -> (B, V*L+S, T, H, W)
        x1 = x1.permute(0, 2, 3, 1, 4, 5).flatten(1, 2)
        return torch.cat([x1, x2.permute(0, 2, 1, 3, 4)], dim=1)

    def forward(self, x):  # (B, C, T=1, H, W)
        h = self.encoder(x[:, :, -1])  # fails-here
        return (x[:, : self.out_channels, -1] + self.decoder(h)).unsqueeze(2)


forecast_len = 1
toa_loader = TOADataLoader(os.path.join(data_dir, "TOA_forcing_2019.npz"))
dataset = ERA5Dataset(os.path.join(data_dir, "era5_2019.npz"), os.path.join(data_dir, "TOA_forcing_2019.npz"), forecast_len)
loader = DataLoader(dataset, batch_size=8, shuffle=True)
model = Emulator(len(upper_vars), n_levels, 1)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()

for i, batch in enumerate(loader):
    x = model.concat_and_reshape(batch["x"], batch["x_surf"])
    static = batch["static"].unsqueeze(2).expand(-1, -1, x.shape[2], -1, -1).float()
    x = torch.cat((x, static.clone()), dim=1)
    x = torch.cat([x, batch["TOA"].unsqueeze(1)], dim=1)
    y = model.concat_and_reshape(batch["y"], batch["y_surf"])
    k = 0
    while True:
        with torch.no_grad() if k != forecast_len else torch.enable_grad():
            model.eval() if k != forecast_len else model.train()
            y_pred = model(x)
            if k == forecast_len:
                break
            k += 1
            x = y_pred.detach()
            x = torch.cat((x, static[:, :, 0:1].clone()), dim=1)
            # update the TOA based on doy and hod
            elapsed_time = pd.Timedelta(hours=k)
            current_times = [pd.to_datetime(_t, unit="ns") + elapsed_time for _t in batch["datetime"]]
            toa = torch.cat([toa_loader(_t).unsqueeze(0) for _t in current_times], dim=0)
            x = torch.cat([x, toa], dim=1)
    loss = criterion(y_pred, y.to(dtype=y_pred.dtype))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if i % 10 == 0:
        print(f"batch {i} rollout loss {loss.item():.4f}")
    if i == 30:
        break

torch.save(model.state_dict(), os.path.join(data_dir, "emulator.pt"))
