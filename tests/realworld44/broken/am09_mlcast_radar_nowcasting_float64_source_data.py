"""Precipitation nowcasting from radar with mlcast (mlcast-community/mlcast: src/mlcast/data/source_data_datasets.py's SourceDataRandomSamplingDataset and _build_sample, src/mlcast/data/normalization.py's Marshall-Palmer ReflectivityScaling, src/mlcast/models/convgru.py's ConvGRU encoder-decoder, src/mlcast/nowcasting_module.py's shared_step), the state fixed by pull request #12: the DMI radar rainfall rates are stored as float64, the normalization keeps the caller's dtype, and _build_sample hands the float64 cube to torch.from_numpy, so the first ConvGRU gate convolution gets float64 input against float32 weights
source: https://github.com/mlcast-community/mlcast/pull/12
reported-error: "bugfix: cast source dataset samples to float32": some datasets might be stored in float64 (e.g. the DMI radar dataset is); convert normalized sample arrays to float32 before torch.from_numpy so float64 source data does not leak into training tensors
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 139
root-cause: line 91
expect: DG004
"""
from dataclasses import dataclass
from typing import TypedDict

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

_SECONDS_PER_HOUR = 3600.0
_5MIN_ACCUMULATION_HOURS = 5 * 60 / _SECONDS_PER_HOUR


# ---- src/mlcast/data/normalization.py (reduced to the rainfall-rate path)
@dataclass(frozen=True)
class ReflectivityScaling:
    a: float = 200.0
    b: float = 1.6
    dbz_floor: float = 0.0
    dbz_ceiling: float = 60.0
    norm_min: float = -1.0
    norm_max: float = 1.0

    def _typed_constants(self, dtype):
        dt = dtype.type if np.issubdtype(dtype, np.floating) else np.float64
        return dt(self.a), dt(self.b), dt(self.dbz_floor), dt(self.dbz_ceiling)

    def rainfall_rate_to_reflectivity(self, rainfall_rate: np.ndarray) -> np.ndarray:
        # The output dtype matches the input dtype for floating-point inputs.
        a, b, floor, ceiling = self._typed_constants(rainfall_rate.dtype)
        with np.errstate(divide="ignore", invalid="ignore"):
            dbz = 10 * np.log10(a) + 10 * b * np.log10(rainfall_rate)
        return np.clip(dbz, floor, ceiling)

    def normalize_reflectivity(self, reflectivity: np.ndarray) -> np.ndarray:
        dbz_span = self.dbz_ceiling - self.dbz_floor
        norm_span = self.norm_max - self.norm_min
        return self.norm_min + (reflectivity - self.dbz_floor) * (norm_span / dbz_span)

    def rainfall_rate_to_normalized(self, rainfall_rate: np.ndarray) -> np.ndarray:
        return self.normalize_reflectivity(self.rainfall_rate_to_reflectivity(rainfall_rate))

    @property
    def normalization_registry(self):
        return {"rainfall_rate": self.rainfall_rate_to_normalized}


DEFAULT_SCALING = ReflectivityScaling()
NORMALIZATION_REGISTRY = DEFAULT_SCALING.normalization_registry


# ---- src/mlcast/data/source_data_datasets.py (reduced: the zarr/xarray store is an in-memory dict of arrays)
class DatasetSample(TypedDict, total=False):
    input: torch.Tensor
    target: torch.Tensor
    target_mask: torch.Tensor


class SourceDataRandomSamplingDataset(Dataset):
    def __init__(self, ds, standard_names, input_steps=4, forecast_steps=2, h=32, w=32, epoch_size=16,
                 return_mask=True, augment=False, seed=0):
        self.ds = ds
        self.standard_names = standard_names
        self.input_steps = input_steps
        self.forecast_steps = forecast_steps
        self.h, self.w = h, w
        self.epoch_size = epoch_size
        self.return_mask = return_mask
        self.augment = augment
        self.rng = np.random.default_rng(seed)
        self.max_t, self.max_y, self.max_x = ds[standard_names[0]].shape

    @property
    def steps(self) -> int:
        return self.input_steps + self.forecast_steps

    def __len__(self) -> int:
        return self.epoch_size

    def _build_sample(self, data: np.ndarray) -> DatasetSample:
        # Capture target mask before NaNs are filled
        if self.return_mask:
            target_mask_t = torch.from_numpy((~np.isnan(data[self.input_steps:])).astype(np.float32))

        data = np.nan_to_num(data, nan=-1.0)  # root-cause
        data_t = torch.from_numpy(data)

        input_t = data_t[: self.input_steps]
        target_t = data_t[self.input_steps:]

        sample = DatasetSample(input=input_t, target=target_t)
        if self.return_mask:
            sample["target_mask"] = target_mask_t
        return sample

    def __getitem__(self, idx: int) -> DatasetSample:
        t_start = self.rng.integers(0, self.max_t - self.steps + 1)
        y_start = self.rng.integers(0, self.max_y - self.h + 1)
        x_start = self.rng.integers(0, self.max_x - self.w + 1)
        t_slice = slice(int(t_start), int(t_start) + self.steps)
        y_slice = slice(int(y_start), int(y_start) + self.h)
        x_slice = slice(int(x_start), int(x_start) + self.w)

        channels = []
        for std_name in self.standard_names:
            da_var = self.ds[std_name][t_slice, y_slice, x_slice]
            norm_func = NORMALIZATION_REGISTRY[std_name]
            channels.append(norm_func(da_var))

        data = np.swapaxes(np.stack(channels, axis=0), 0, 1)
        return self._build_sample(data)


# ---- src/mlcast/models/convgru.py (reduced: one encoder and one decoder level)
class ConvGRUCell(nn.Module):
    def __init__(self, input_size, hidden_size, kernel_size=3, conv_layer=nn.Conv2d):
        super().__init__()
        padding = kernel_size // 2
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.combined_gates = conv_layer(input_size + hidden_size, 2 * hidden_size, kernel_size, padding=padding)
        self.out_gate = conv_layer(input_size + hidden_size, hidden_size, kernel_size, padding=padding)

    def forward(self, inpt=None, h_s=None):
        if h_s is None and inpt is None:
            raise ValueError("Both input and state can't be None")
        elif h_s is None and inpt is not None:
            h_s = torch.zeros(inpt.size(0), self.hidden_size, inpt.size(2), inpt.size(3), dtype=inpt.dtype,
                              device=inpt.device)
        elif inpt is None and h_s is not None:
            inpt = torch.zeros(h_s.size(0), self.input_size, h_s.size(2), h_s.size(3), dtype=h_s.dtype,
                               device=h_s.device)
        gamma, beta = torch.chunk(self.combined_gates(torch.cat([inpt, h_s], dim=1)), 2, dim=1)  # fails-here
        update = torch.sigmoid(gamma)
        reset = torch.sigmoid(beta)
        out_inputs = torch.tanh(self.out_gate(torch.cat([inpt, h_s * reset], dim=1)))
        return h_s * (1 - update) + out_inputs * update


class ConvGRU(nn.Module):
    def __init__(self, input_size, hidden_size, kernel_size=3, conv_layer=nn.Conv2d):
        super().__init__()
        self.cell = ConvGRUCell(input_size, hidden_size, kernel_size, conv_layer)

    def forward(self, x=None, h=None):
        h_s = []
        for i in range(x.size(1)):
            h = self.cell(x[:, i], h)
            h_s.append(h)
        return torch.stack(h_s, dim=1)


class EncoderDecoder(nn.Module):
    def __init__(self, channels=1, hidden=8, forecast_steps=2):
        super().__init__()
        self.forecast_steps = forecast_steps
        self.encoder = ConvGRU(channels * 4, hidden)
        self.down = nn.PixelUnshuffle(2)
        self.decoder = ConvGRU(hidden, hidden)
        self.head = nn.Conv2d(hidden, channels * 4, 1)
        self.up = nn.PixelShuffle(2)

    def forward(self, x):
        b, t = x.shape[:2]
        x = self.down(x.flatten(0, 1)).unflatten(0, (b, t))
        h = self.encoder(x)[:, -1]
        out = []
        state = h
        for _ in range(self.forecast_steps):
            state = self.decoder.cell(None, state)
            out.append(self.up(self.head(state)))
        return torch.stack(out, dim=1)


# ---- src/mlcast/nowcasting_module.py (reduced: shared_step with the masked MSE, a plain loop for Lightning)
class MaskedMSE(nn.Module):
    def forward(self, preds, target, mask):
        return ((preds - target) ** 2 * mask).sum() / mask.sum().clamp(min=1)


class NowcastingModule(nn.Module):
    def __init__(self, net, masked_loss=True):
        super().__init__()
        self.net = net
        self.masked_loss = masked_loss
        self.criterion = MaskedMSE()

    def shared_step(self, batch):
        past = batch["input"]
        future = batch["target"]
        preds = self.net(past)
        if self.masked_loss:
            return self.criterion(preds, future, batch["target_mask"])
        return nn.functional.mse_loss(preds, future)


def open_dmi_radar(n_t=24, ny=64, nx=64, seed=0):
    # the DMI composite: rainfall rate in mm/h, float64, NaN outside the radar coverage
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:ny, 0:nx]
    frames = []
    for t in range(n_t):
        cx, cy = 10 + t * 1.5, 20 + t * 0.8
        frames.append(8.0 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 120.0) + rng.gamma(0.3, 0.2, (ny, nx)))
    rate = np.stack(frames)
    rate[:, :4, :] = np.nan
    return {"rainfall_rate": rate}


if __name__ == "__main__":
    torch.manual_seed(0)
    ds = open_dmi_radar()
    print("source dtype", ds["rainfall_rate"].dtype)
    dataset = SourceDataRandomSamplingDataset(ds, ["rainfall_rate"], input_steps=4, forecast_steps=2, h=32, w=32)
    loader = DataLoader(dataset, batch_size=4, shuffle=False, num_workers=0)
    module = NowcastingModule(EncoderDecoder(channels=1, hidden=8, forecast_steps=2))
    optimizer = torch.optim.Adam(module.parameters(), lr=1e-3)
    for epoch in range(2):
        for batch in loader:
            loss = module.shared_step(batch)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} train_loss {loss.item():.4f}")
