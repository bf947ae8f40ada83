"""ICLabel-style classifier built while the user's session runs with torch.set_default_dtype(torch.float64): the network comes out float64 but the feature formatter emits float32
source: https://github.com/mne-tools/mne-icalabel/pull/325
reported-error: inference fails when the global default dtype is float64: the ICLabel model is created with float64 parameters while its input formatter still produces float32 tensors (no traceback quoted in the PR)
outcome: RuntimeError: Input type (float) and bias type (double) should be the same at line 24
root-cause: line 37
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn

# the user's own analysis code wants double precision everywhere
torch.set_default_dtype(torch.float64)  # root-cause-alt


class ICLabelNet(nn.Module):
    def __init__(self, n_classes=7):
        super().__init__()
        self.img_conv = nn.Sequential(nn.Conv2d(1, 32, 4, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 4, 2, 1), nn.ReLU())
        self.psd_conv = nn.Sequential(nn.Conv1d(1, 16, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(64 * 8 * 8 + 16 * 100, n_classes)

    def forward(self, images, psds):
        a = self.img_conv(images).flatten(1)  # fails-here
        b = self.psd_conv(psds).flatten(1)
        return torch.softmax(self.head(torch.cat([a, b], 1)), dim=1)


def format_input(topo, psd):
    # mirrors the feature formatter: always hands the network float32 tensors
    images = torch.from_numpy(topo.astype(np.float32))[:, None]
    psds = torch.from_numpy(psd.astype(np.float32))[:, None]
    return images, psds


def run_iclabel(topo, psd, state_dict=None):
    net = ICLabelNet()  # root-cause
    if state_dict is not None:
        net.load_state_dict(state_dict)
    net.eval()
    images, psds = format_input(topo, psd)
    with torch.no_grad():
        return net(images, psds)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    n_components = 12
    topo = rng.normal(size=(n_components, 32, 32))
    psd = rng.normal(size=(n_components, 100))
    labels = run_iclabel(topo, psd)
    print(labels.argmax(1))
