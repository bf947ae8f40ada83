"""Cosmic-ray masking U-Net for ground-based CCD frames: the package's init_model() helper still selects the default tensor type with torch.set_default_tensor_type (cuda or CPU FloatTensor) before building the network, which PyTorch >= 2.1 reports as deprecated on every start
source: https://github.com/cy-xu/cosmic-conn/issues/13
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.; the masks are still produced)
root-cause: line 44
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn


# ---- cosmic_conn/dl_framework/cosmic_conn.py
class DoubleConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())

    def forward(self, x):
        return self.net(x)


class CosmicConn(nn.Module):
    def __init__(self, base=8):
        super().__init__()
        self.down = DoubleConv(1, base)
        self.pool = nn.MaxPool2d(2)
        self.mid = DoubleConv(base, base * 2)
        self.up = nn.ConvTranspose2d(base * 2, base, 2, stride=2)
        self.out = nn.Sequential(DoubleConv(base * 2, base), nn.Conv2d(base, 1, 1))

    def forward(self, x):
        d = self.down(x)
        u = self.up(self.mid(self.pool(d)))
        return torch.sigmoid(self.out(torch.cat([d, u], 1)))


# ---- cosmic_conn/__init__.py
def init_model(kind="ground_imaging"):
    if torch.cuda.is_available():
        torch.set_default_tensor_type(torch.cuda.FloatTensor)
    else:
        torch.set_default_tensor_type(torch.FloatTensor)  # root-cause
    model = CosmicConn()
    model.eval()
    return model


def detect_cr(model, frame, tile=64):
    frame = (frame - np.median(frame)) / (np.std(frame) + 1e-6)
    x = torch.from_numpy(frame.astype(np.float32))[None, None]
    with torch.no_grad():
        return model(x)[0, 0].numpy()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    frame = rng.normal(1000.0, 30.0, (64, 64))
    frame[rng.integers(0, 64, 20), rng.integers(0, 64, 20)] += 5000.0
    cr_model = init_model("ground_imaging")
    mask = detect_cr(cr_model, frame)
    print("mask", mask.shape, "flagged", int((mask > 0.5).sum()))
