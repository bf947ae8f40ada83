"""Nanopore basecaller run on a CPU-only workstation: the weights file was written on a GPU box (storages tagged cuda:0), and load_model() passes map_location to the wrong call: it is given to load_state_dict's wrapper while torch.load itself runs without it
source: https://github.com/biodlab/RODAN/issues/5
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. (after adding map_location=torch.device('cpu') the reporter was unsure it was applied)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 43
root-cause: line 43
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


class Basecaller(nn.Module):
    def __init__(self, channels=16, n_bases=5):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, channels, 9, padding=4), nn.SiLU(), nn.Conv1d(channels, channels, 9, padding=4), nn.SiLU())
        self.out = nn.Conv1d(channels, n_bases, 1)

    def forward(self, signal):
        return self.out(self.conv(signal)).log_softmax(1)


def save_on_gpu_box(path):
    """What the training server wrote: a state_dict whose storages are tagged cuda:0."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"state_dict": Basecaller().state_dict(), "config": {"channels": 16}}, path)
    finally:
        torch.serialization.location_tag = orig


def apply_weights(model, state, map_location=None):
    model.load_state_dict(state["state_dict"])
    return model.to(map_location or "cpu")


def load_model(path, device):
    model = Basecaller()
    return apply_weights(model, torch.load(path), map_location=device)  # root-cause # fails-here


if __name__ == "__main__":
    weights = os.path.join(tempfile.mkdtemp(), "rna_r9.4.1.torch")
    save_on_gpu_box(weights)
    model = load_model(weights, torch.device("cpu")).eval()
    with torch.no_grad():
        probs = model(torch.randn(1, 1, 400))
    print("called bases:", "".join("NACGT"[i] for i in probs.argmax(1)[0, :20].tolist()))
