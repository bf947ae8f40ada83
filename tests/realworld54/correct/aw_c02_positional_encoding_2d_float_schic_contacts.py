"""Training a TAD-boundary detector on single-cell Hi-C contact tiles with a 2-D sinusoidal positional encoding added by multidim-positional-encoding's Summer(PositionalEncoding2D) (tatp22/multidim-positional-encoding #39 as in aw02) with the reporter's fix: the integer contact counts (int64 in the .npz and in numpy) are made a float32 tensor in __getitem__, so PositionalEncoding2D's buffer allocated with dtype=tensor.dtype is float32 and keeps its sin/cos values; the integer-position arange and the int64 count matrix stay as they are
source: https://github.com/tatp22/multidim-positional-encoding/issues/39
reported-error: (none filed; the fixed situation of aw02)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
rng = np.random.default_rng(0)
work_dir = tempfile.mkdtemp()


def get_emb(sin_inp):
    emb = torch.stack((sin_inp.sin(), sin_inp.cos()), dim=-1)
    return torch.flatten(emb, -2, -1)


class PositionalEncoding2D(nn.Module):
    """positional_encodings.torch_encodings.PositionalEncoding2D (6.0.3)."""

    def __init__(self, channels):
        super().__init__()
        self.org_channels = channels
        channels = int(np.ceil(channels / 4) * 2)
        self.channels = channels
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2).float() / channels))
        self.register_buffer("inv_freq", inv_freq)
        self.register_buffer("cached_penc", None, persistent=False)

    def forward(self, tensor):
        if self.cached_penc is not None and self.cached_penc.shape == tensor.shape:
            return self.cached_penc
        self.cached_penc = None
        batch_size, x, y, orig_ch = tensor.shape
        pos_x = torch.arange(x, device=tensor.device, dtype=self.inv_freq.dtype)
        pos_y = torch.arange(y, device=tensor.device, dtype=self.inv_freq.dtype)
        emb_x = get_emb(torch.einsum("i,j->ij", pos_x, self.inv_freq)).unsqueeze(1)
        emb_y = get_emb(torch.einsum("i,j->ij", pos_y, self.inv_freq))
        emb = torch.zeros((x, y, self.channels * 2), device=tensor.device, dtype=tensor.dtype)
        emb[:, :, : self.channels] = emb_x
        emb[:, :, self.channels : 2 * self.channels] = emb_y
        self.cached_penc = emb[None, :, :, :orig_ch].repeat(tensor.shape[0], 1, 1, 1)
        return self.cached_penc


class Summer(nn.Module):
    def __init__(self, penc):
        super().__init__()
        self.penc = penc

    def forward(self, tensor):
        penc = self.penc(tensor)
        assert tensor.size() == penc.size()
        return tensor + penc


# --- synthetic single-cell Hi-C: 4 cells of one cluster, 10 kb bins, TADs with sparse integer contacts ---
n_bins, n_cells = 600, 4
boundaries = np.sort(rng.choice(np.arange(20, n_bins - 20), size=24, replace=False))
tad_id = np.searchsorted(boundaries, np.arange(n_bins))
dist = np.abs(np.arange(n_bins)[:, None] - np.arange(n_bins)[None, :]) + 1
lam = 6.0 / dist * (1.0 + 3.0 * (tad_id[:, None] == tad_id[None, :]))
counts = np.stack([rng.poisson(lam) for _ in range(n_cells)], axis=-1)  # (bins, bins, cells) int64
np.savez(os.path.join(work_dir, "chr19_10kb.npz"), counts=counts, boundaries=boundaries)


class ContactTiles(Dataset):
    def __init__(self, path, tile=32, stride=4):
        data = np.load(path)
        self.counts, self.boundaries, self.tile = data["counts"], data["boundaries"], tile
        self.starts = np.arange(0, self.counts.shape[0] - tile, stride)

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, i):
        s = self.starts[i]
        tile = self.counts[s:s + self.tile, s:s + self.tile]
        centre = (self.boundaries >= s + self.tile // 4) & (self.boundaries < s + 3 * self.tile // 4)
        contacts = torch.from_numpy(np.ascontiguousarray(tile)).float()
        return contacts, torch.tensor(float(centre.any()))


class BoundaryNet(nn.Module):
    def __init__(self, n_cells):
        super().__init__()
        self.pos_enc = Summer(PositionalEncoding2D(n_cells))
        self.conv = nn.Sequential(
            nn.Conv2d(n_cells, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.head = nn.Linear(32, 1)

    def forward(self, contacts):  # (B, x, y, cells)
        x = self.pos_enc(contacts)
        x = x.float().permute(0, 3, 1, 2)
        return self.head(self.conv(x).flatten(1)).squeeze(1)


dataset = ContactTiles(os.path.join(work_dir, "chr19_10kb.npz"))
loader = DataLoader(dataset, batch_size=16, shuffle=True, drop_last=True)
model = BoundaryNet(n_cells)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(4):
    total, correct, running = 0, 0, 0.0
    for contacts, label in loader:
        logits = model(contacts)
        loss = F.binary_cross_entropy_with_logits(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        running += loss.item() * len(label)
        correct += ((logits > 0).float() == label).sum().item()
        total += len(label)
    print(f"epoch {epoch} loss {running / total:.4f} acc {correct / total:.3f}")

pe = model.pos_enc.penc.cached_penc
print(f"positional encoding dtype {pe.dtype}: {100.0 * (pe != 0).float().mean().item():.1f}% of its entries are non-zero")
torch.save(model.state_dict(), os.path.join(work_dir, "boundary_net.pt"))
