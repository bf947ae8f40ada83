"""Training a ResNet weather forecaster on ERA5-style 5.625-degree fields with ClimateLearn's ERA5 dataset, Forecasting task and collate_fn (aditya-grover/climate-learn PR #96): the dynamic variables are stored as float32, but the "lattitude" constant is stored as double, setup_constants makes it a tensor with torch.tensor(values) (float64), and the collate_fn's torch.stack of {**inp_data, **const_data} promotes the whole input batch to float64 before the float32 network
source: https://github.com/aditya-grover/climate-learn/pull/96
reported-error: "Having a single variable stored as double converts the entire torch.tensor as double. This then results in a batch where input and output are in double but the model takes input as float, thus it throws an error"; the PR enforces .astype(np.float32) when ERA5 constants and variables become tensors
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 131
root-cause: line 46
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
root_dir = tempfile.mkdtemp()

# --- synthetic ERA5 at 5.625 deg: one file per variable and year, plus a constants file ---
lat = np.linspace(-87.1875, 87.1875, 32)  # float64, as in the netCDF coordinates
lon = np.linspace(0, 354.375, 64)
hours = np.arange(24 * 30 * 2)
years = [2015, 2016]
variables = ["2m_temperature", "geopotential_500", "temperature_850"]
for year in years:
    for v, base, amp in zip(variables, [280.0, 54000.0, 275.0], [20.0, 800.0, 15.0]):
        field = base + amp * np.cos(np.deg2rad(lat))[None, :, None] * np.sin(
            2 * np.pi * (hours[:, None, None] / 24.0 + lon[None, None, :] / 360.0)) + rng.normal(0, 1, (len(hours), 32, 64))
        np.savez(os.path.join(root_dir, f"{v}_{year}_5.625deg.npz"), data=field.astype(np.float32))
lat2d = np.repeat(lat[:, None], 64, axis=1)
np.savez(os.path.join(root_dir, "constants_5.625deg.npz"),
         land_sea_mask=(rng.random((32, 64)) > 0.7).astype(np.float32),
         orography=np.abs(rng.normal(0, 500, (32, 64))).astype(np.float32),
         lattitude=lat2d)  # stored as double


class ERA5:
    def __init__(self, root_dir, variables, constants, years):
        self.root_dir, self.variables, self.constants, self.years = root_dir, variables, constants, years
        self.constants_data = {}

    def setup_constants(self):
        all_constants = np.load(os.path.join(self.root_dir, "constants_5.625deg.npz"))
        for name in self.constants:
            self.constants_data[name] = torch.tensor(all_constants[name])  # root-cause

    def load_from_nc_by_years(self):
        data_dict = {v: [] for v in self.variables}
        for year in self.years:
            for v in self.variables:
                data_dict[v].append(np.load(os.path.join(self.root_dir, f"{v}_{year}_5.625deg.npz"))["data"])
        return {k: torch.from_numpy(np.concatenate(data_dict[k], axis=0)) for k in data_dict}

    def setup(self):
        self.setup_constants()
        self.data_dict = self.load_from_nc_by_years()
        return len(self.data_dict[self.variables[0]])


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, x):  # (C, H, W)
        return (x - self.mean.view(-1, 1, 1)) / self.std.view(-1, 1, 1)


class Forecasting:
    def __init__(self, in_vars, out_vars, constants, history=3, window=6, pred_range=72):
        self.in_vars, self.out_vars, self.constants = in_vars, out_vars, constants
        self.history, self.window, self.pred_range = history, window, pred_range

    def setup(self, data_len):
        return data_len - ((self.history - 1) * self.window + self.pred_range)

    def get_raw_index(self, index):
        idx = [index + self.window * i for i in range(self.history)]
        return idx + [index + (self.history - 1) * self.window + self.pred_range]

    def create_constants_data(self, constants_data):
        const = {k: constants_data[k].repeat(self.history, 1, 1) for k in self.constants}
        return {k: self.const_transform[k](const[k].unsqueeze(1)).squeeze(1) for k in self.constants}

    def create_inp_out(self, raw_data):
        inp = {k: self.inp_transform[k](raw_data[k][:-1].unsqueeze(1)).squeeze(1) for k in self.in_vars}
        out = {k: self.out_transform[k](raw_data[k][-1].unsqueeze(0)).squeeze(0) for k in self.out_vars}
        return inp, out


class MapDataset(Dataset):
    def __init__(self, data, task):
        self.data, self.task = data, task
        self.length = task.setup(data.setup())
        stats = {k: (v.mean().view(1), v.std().view(1)) for k, v in {**data.data_dict, **data.constants_data}.items()}
        task.inp_transform = {k: Normalize(*stats[k]) for k in task.in_vars}
        task.out_transform = {k: Normalize(*stats[k]) for k in task.out_vars}
        task.const_transform = {k: Normalize(*stats[k]) for k in task.constants}
        self.const_data = task.create_constants_data(data.constants_data)

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        raw = {k: v[self.task.get_raw_index(index)] for k, v in self.data.data_dict.items()}
        inp, out = self.task.create_inp_out(raw)
        return inp, out, self.const_data, self.task.out_vars


def collate_fn(batch):
    def handle_dict_features(t):
        t = torch.stack(tuple(t.values()))
        return torch.transpose(t, 0, 1) if len(t.size()) == 4 else t

    # as a hotfix inp is just stacking input and constants data via {**inp_data, **const_data}
    inp = torch.stack([handle_dict_features({**b[0], **b[2]}) for b in batch])
    out = torch.stack([handle_dict_features(b[1]) for b in batch])
    return inp, out, list(batch[0][0].keys()) + list(batch[0][2].keys()), list(batch[0][1].keys())


class ResNet(nn.Module):
    def __init__(self, in_channels, out_channels, history, hidden=32, n_blocks=2):
        super().__init__()
        self.image_proj = nn.Conv2d(in_channels * history, hidden, 7, padding=3, padding_mode="circular")
        self.blocks = nn.ModuleList([nn.Sequential(nn.Conv2d(hidden, hidden, 3, padding=1, padding_mode="circular"),
                                                   nn.GELU(), nn.BatchNorm2d(hidden)) for _ in range(n_blocks)])
        self.final = nn.Conv2d(hidden, out_channels, 7, padding=3, padding_mode="circular")

    def forward(self, x):  # (B, history, C, H, W)
        x = x.flatten(1, 2)
        x = self.image_proj(x)  # fails-here
        for block in self.blocks:
            x = x + block(x)
        return self.final(x)


constants = ["land_sea_mask", "orography", "lattitude"]
task = Forecasting(in_vars=variables, out_vars=["2m_temperature", "geopotential_500"], constants=constants)
dataset = MapDataset(ERA5(root_dir, variables, constants, years), task)
loader = DataLoader(dataset, batch_size=16, shuffle=True, collate_fn=collate_fn)
model = ResNet(len(variables) + len(constants), 2, history=3)
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
lat_weights = torch.from_numpy(np.cos(np.deg2rad(lat)) / np.cos(np.deg2rad(lat)).mean()).float().view(1, 1, -1, 1)

for step, (inp, out, in_names, out_names) in enumerate(loader):
    pred = model(inp)
    loss = (lat_weights * (pred - out) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step} lat-weighted mse {loss.item():.4f}")
    if step == 30:
        break

torch.save(model.state_dict(), os.path.join(root_dir, "resnet_forecaster.pt"))
