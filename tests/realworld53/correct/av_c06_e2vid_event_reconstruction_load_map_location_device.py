"""Event-camera video reconstruction with E2VID run without --use_gpu on a laptop without CUDA (uzh-rpg/rpg_e2vid PR #24 as in av06) with the PR's change: load_model(path_to_model, device) reads the released checkpoint with torch.load(path_to_model, map_location=device), so the storages written from CUDA are mapped to the device get_device() chose; the checkpoint is still the GPU-saved one, the architecture is still picked with eval(arch) and the voxel grids are built on that device
source: https://github.com/uzh-rpg/rpg_e2vid/pull/24
reported-error: (none filed; the fixed situation of av06)
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
import torch.serialization


# ---- model/submodules.py and model/unet.py (trimmed: one recurrent encoder, residual block, one decoder)
class ConvLSTM(nn.Module):
    def __init__(self, input_size, hidden_size, kernel_size=3):
        super().__init__()
        self.hidden_size = hidden_size
        self.Gates = nn.Conv2d(input_size + hidden_size, 4 * hidden_size, kernel_size, padding=kernel_size // 2)

    def forward(self, input_, prev_state=None):
        if prev_state is None:
            zeros = torch.zeros((input_.shape[0], self.hidden_size) + input_.shape[2:], dtype=input_.dtype, device=input_.device)
            prev_state = (zeros, zeros)
        prev_hidden, prev_cell = prev_state
        in_gate, remember_gate, out_gate, cell_gate = self.Gates(torch.cat((input_, prev_hidden), 1)).chunk(4, 1)
        cell = torch.sigmoid(remember_gate) * prev_cell + torch.sigmoid(in_gate) * torch.tanh(cell_gate)
        hidden = torch.sigmoid(out_gate) * torch.tanh(cell)
        return hidden, cell


class UNetRecurrent(nn.Module):
    def __init__(self, num_input_channels, base_num_channels=16):
        super().__init__()
        c = base_num_channels
        self.head = nn.Sequential(nn.Conv2d(num_input_channels, c, 5, padding=2), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(c, 2 * c, 5, stride=2, padding=2), nn.ReLU())
        self.recurrent = ConvLSTM(2 * c, 2 * c)
        self.resblock = nn.Sequential(nn.Conv2d(2 * c, 2 * c, 3, padding=1), nn.ReLU(), nn.Conv2d(2 * c, 2 * c, 3, padding=1))
        self.up = nn.Sequential(nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False), nn.Conv2d(2 * c, c, 5, padding=2), nn.ReLU())
        self.pred = nn.Conv2d(c, 1, 1)

    def forward(self, x, prev_states):
        head = self.head(x)
        state = self.recurrent(self.down(head), prev_states)
        x = state[0] + self.resblock(state[0])
        return torch.sigmoid(self.pred(self.up(x) + head)), state


# ---- model/model.py
class E2VIDRecurrent(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_bins = int(config["num_bins"])
        self.base_num_channels = int(config.get("base_num_channels", 16))
        self.unetrecurrent = UNetRecurrent(self.num_bins, self.base_num_channels)

    def forward(self, event_tensor, prev_states):
        return self.unetrecurrent(event_tensor, prev_states)


# ---- utils/loading_utils.py (with PR #24)
def load_model(path_to_model, device):
    print("Loading model...")
    raw_model = torch.load(path_to_model, map_location=device)
    arch = raw_model["arch"]
    model_type = raw_model["model"]
    model = eval(arch)(model_type)
    model.load_state_dict(raw_model["state_dict"])
    return model


def get_device(use_gpu):
    device = torch.device("cuda:0") if use_gpu and torch.cuda.is_available() else torch.device("cpu")
    print("Device:", device)
    return device


# ---- utils/inference_utils.py
def events_to_voxel_grid_pytorch(events, num_bins, width, height, device):
    with torch.no_grad():
        events_torch = torch.from_numpy(events).float().to(device)
        voxel_grid = torch.zeros(num_bins, height, width, dtype=torch.float32, device=device).flatten()
        first_stamp, last_stamp = events_torch[0, 0], events_torch[-1, 0]
        deltaT = max(float(last_stamp - first_stamp), 1e-6)
        ts = (num_bins - 1) * (events_torch[:, 0] - first_stamp) / deltaT
        xs, ys = events_torch[:, 1].long(), events_torch[:, 2].long()
        pols = events_torch[:, 3].float()
        pols[pols == 0] = -1
        tis = torch.floor(ts)
        dts = ts - tis
        for t_idx, weight in ((tis, 1.0 - dts), (tis + 1, dts)):
            valid = t_idx < num_bins
            index = xs[valid] + ys[valid] * width + t_idx[valid].long() * width * height
            voxel_grid.index_add_(0, index, pols[valid] * weight[valid])
        return voxel_grid.view(num_bins, height, width)


def write_event_file(path, width=64, height=48, n=30000, seed=0):
    """A bar moving across the sensor: events.txt in the format the readers expect (header: width height)."""
    rng = np.random.default_rng(seed)
    t = np.sort(rng.uniform(0, 1.0, n))
    x = np.clip((t * width + rng.normal(0, 1.5, n)).astype(int), 0, width - 1)
    y = rng.integers(0, height, n)
    p = (rng.random(n) < 0.6).astype(int)
    with open(path, "w") as fh:
        fh.write(f"{width} {height}\n")
        pd.DataFrame({"t": t, "x": x, "y": y, "p": p}).to_csv(fh, sep=" ", header=False, index=False, float_format="%.6f")


work = tempfile.mkdtemp()
path_to_events = os.path.join(work, "dynamic_6dof.txt")
write_event_file(path_to_events)
path_to_model = os.path.join(work, "E2VID_lightweight.pth.tar")

# the released checkpoint, saved from the GPU the network was trained on
_location_tag = torch.serialization.location_tag
torch.serialization.location_tag = lambda storage: "cuda:0"
try:
    config = {"num_bins": 5, "base_num_channels": 16, "recurrent_block_type": "convlstm"}
    torch.save({"arch": "E2VIDRecurrent", "model": config, "state_dict": E2VIDRecurrent(config).state_dict()}, path_to_model)
finally:
    torch.serialization.location_tag = _location_tag

# ---- run_reconstruction.py, run as: python run_reconstruction.py -c E2VID_lightweight.pth.tar -i events.txt (no --use_gpu)
header = pd.read_csv(path_to_events, sep=r"\s+", header=None, names=["width", "height"], dtype={"width": int, "height": int}, nrows=1)
width, height = header.values[0]
print("Sensor size: {} x {}".format(width, height))

device = get_device(use_gpu=False)
model = load_model(path_to_model, device)
model = model.to(device)
model.eval()

N = int(width * height * 0.35)
states, frames = None, []
reader = pd.read_csv(path_to_events, sep=r"\s+", header=None, names=["t", "x", "y", "pol"], skiprows=1, chunksize=N)
with torch.no_grad():
    for chunk in reader:
        event_window = chunk.to_numpy()
        event_tensor = events_to_voxel_grid_pytorch(event_window, model.num_bins, width, height, device)
        mean, std = event_tensor[event_tensor != 0].mean(), event_tensor[event_tensor != 0].std()
        event_tensor[event_tensor != 0] = (event_tensor[event_tensor != 0] - mean) / std
        img, states = model(event_tensor.unsqueeze(0), states)
        frames.append(img[0, 0].cpu().numpy())
print(f"reconstructed {len(frames)} frames of {frames[0].shape}, mean intensity {np.mean(frames[-1]):.3f}")
