"""ContactDB-style VoxNet trainer that stores the contact classes as int32 on disk-like arrays to save memory and converts them with .long() inside the masked loss helper, right before cross_entropy
source: https://github.com/samarth-robo/contactdb_prediction/issues/4
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class VoxelContactDataset(Dataset):
    def __init__(self, n=24, grid=8, seed=0):
        rng = np.random.default_rng(seed)
        self.occ = (rng.random((n, 1, grid, grid, grid)) > 0.6).astype(np.float32)
        self.contact = rng.integers(0, 3, (n, grid, grid, grid)).astype(np.int32)

    def __len__(self):
        return len(self.occ)

    def __getitem__(self, i):
        return torch.from_numpy(self.occ[i]), torch.from_numpy(self.contact[i])


def masked_ce(logits, targ, occ):
    mask = occ.squeeze(1) > 0
    return nn.functional.cross_entropy(logits.permute(0, 2, 3, 4, 1)[mask], targ[mask].long())


loader = DataLoader(VoxelContactDataset(), batch_size=4, shuffle=True)
model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, 3, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for occ, targ in loader:
    loss = masked_ce(model(occ), targ, occ)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
