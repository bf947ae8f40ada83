"""Event-to-video reconstruction demo (argparse main): load_model() builds the recurrent generator and restores the released GPU-trained weights with torch.load(args.path_to_model); running the demo on a machine without CUDA fails while deserialising
source: https://github.com/uzh-rpg/rpg_e2vid/issues/15
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 43
root-cause: line 43
expect: DG010
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import serialization


class RecurrentGenerator(nn.Module):
    def __init__(self, bins=5, c=16):
        super().__init__()
        self.enc = nn.Conv2d(bins + c, c, 3, padding=1)
        self.dec = nn.Conv2d(c, 1, 1)
        self.c = c

    def forward(self, voxel, state=None):
        if state is None:
            state = torch.zeros(voxel.size(0), self.c, *voxel.shape[-2:])
        state = torch.tanh(self.enc(torch.cat([voxel, state], 1)))
        return torch.sigmoid(self.dec(state)), state


def export_release_weights(path):
    """Stand-in for the released checkpoint (trained on a GPU, storages tagged cuda:0)."""
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"arch": "RecurrentGenerator", "state_dict": RecurrentGenerator().state_dict()}, path)
    finally:
        serialization.location_tag = original


def load_model(path_to_model):
    raw_model = torch.load(path_to_model)  # root-cause  # fails-here
    model = RecurrentGenerator()
    model.load_state_dict(raw_model["state_dict"])
    return model.eval()


def events_to_voxel(events, bins, h, w):
    voxel = np.zeros((bins, h, w), dtype=np.float32)
    t = (events[:, 0] - events[0, 0]) / max(events[-1, 0] - events[0, 0], 1e-9) * (bins - 1)
    np.add.at(voxel, (t.astype(int), events[:, 2].astype(int), events[:, 1].astype(int)), events[:, 3])
    return torch.from_numpy(voxel)[None]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-c", "--path_to_model", default=os.path.join(tempfile.mkdtemp(), "E2VID_lightweight.pth.tar"))
    ap.add_argument("--use_gpu", action="store_true")
    args = ap.parse_args([])
    export_release_weights(args.path_to_model)
    model = load_model(args.path_to_model)
    rng = np.random.default_rng(0)
    events = np.column_stack([np.sort(rng.random(500)), rng.integers(0, 32, 500), rng.integers(0, 24, 500), rng.choice([-1, 1], 500)])
    state = None
    with torch.no_grad():
        for chunk in np.array_split(events, 4):
            frame, state = model(events_to_voxel(chunk, 5, 24, 32), state)
    print("reconstructed", tuple(frame.shape))


if __name__ == "__main__":
    main()
