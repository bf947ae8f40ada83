"""Cryo-EM heterogeneous reconstruction whose eval_volume walks the z slices with np.linspace(..., dtype=np.float32) (the cryodrgn fix), so torch.tensor([0, 0, dz]) of NumPy float32 scalars stays float32 and the coordinate MLP sees float32 lattice coordinates
source: https://github.com/ml-struct-bio/cryodrgn/pull/6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


# ---- cryodrgn/lattice.py
class Lattice:
    def __init__(self, D, extent=0.5):
        x0, x1 = np.meshgrid(np.linspace(-extent, extent, D, endpoint=True, dtype=np.float32),
                             np.linspace(-extent, extent, D, endpoint=True, dtype=np.float32))
        coords = np.stack([x0.ravel(), x1.ravel(), np.zeros(D * D, np.float32)], 1)
        self.coords = torch.from_numpy(coords)
        self.D = D
        self.extent = extent


# ---- cryodrgn/models.py
class PositionalDecoder(nn.Module):
    def __init__(self, zdim=4, hidden=32, freqs=4):
        super().__init__()
        self.freqs = 2.0 ** torch.arange(freqs)
        self.mlp = nn.Sequential(nn.Linear(3 * 2 * freqs + zdim, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def positional_encoding(self, coords):
        k = coords[..., None] * self.freqs * np.pi
        return torch.cat([torch.sin(k), torch.cos(k)], -1).flatten(-2)

    def forward(self, coords, z):
        enc = self.positional_encoding(coords)
        z = z.expand(enc.shape[0], -1)
        return self.mlp(torch.cat([enc, z], -1))


class HetOnlyVAE(nn.Module):
    def __init__(self, zdim=4):
        super().__init__()
        self.decoder = PositionalDecoder(zdim=zdim)

    @torch.no_grad()
    def eval_volume(self, coords, D, extent, norm, zval):
        z = torch.tensor(zval, dtype=torch.float32).unsqueeze(0)
        vol_f = np.zeros((D, D, D), dtype=np.float32)
        for i, dz in enumerate(np.linspace(-extent, extent, D, endpoint=True, dtype=np.float32)):
            x = coords + torch.tensor([0, 0, dz])
            y = self.decoder(x, z)
            y = y[..., 0] - y[..., 1]
            vol_f[i] = (y.view(D, D) * norm[1] + norm[0]).numpy()
        return vol_f


# ---- cryodrgn/commands/eval_vol.py
def main(args):
    lattice = Lattice(args["D"], extent=0.5)
    model = HetOnlyVAE(zdim=len(args["z"])).eval()
    vol = model.eval_volume(lattice.coords, lattice.D, lattice.extent, args["norm"], args["z"])
    print("volume", vol.shape, float(vol.mean()))


if __name__ == "__main__":
    torch.manual_seed(0)
    main({"D": 16, "z": [0.1, -0.3, 0.7, 0.0], "norm": (0.0, 1.0)})
