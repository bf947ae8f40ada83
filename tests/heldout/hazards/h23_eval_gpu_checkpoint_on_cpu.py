"""Evaluate a checkpoint that was trained on the GPU cluster.
_download_checkpoint() stands in for fetching that file: it writes a state_dict
whose storages are tagged 'cuda:0', exactly like torch.save on a GPU box.
On a CPU-only machine torch.load(path) then raises RuntimeError."""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)

    def forward(self, x):
        return self.fc(x)


def _download_checkpoint():
    path = os.path.join(tempfile.mkdtemp(), "regressor_gpu.pt")
    tag = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(Regressor().state_dict(), path)
    finally:
        torch.serialization.location_tag = tag
    return path


def evaluate(path):
    model = Regressor()
    state = torch.load(path)  # expect: DG010
    model.load_state_dict(state)
    model.eval()
    with torch.no_grad():
        x = torch.randn(10, 3)
        print("mean prediction", model(x).mean().item())


if __name__ == "__main__":
    evaluate(_download_checkpoint())
