"""ContactDB-style VoxNet contact-map trainer: the dataset casts the per-voxel contact classes with astype(np.intc) (the reporter's np.int was 32-bit on Windows), so the masked targets handed to the cross-entropy loss helper are int32
source: https://github.com/samarth-robo/contactdb_prediction/issues/4
reported-error: Error: Expected object of type torch.cuda.LongTensor but found type torch.cuda.IntTensor for argument #2 'other'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 40
root-cause: line 24
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class VoxelContactDataset(Dataset):
    def __init__(self, n=24, grid=8, seed=0):
        rng = np.random.default_rng(seed)
        self.occ = (rng.random((n, 1, grid, grid, grid)) > 0.6).astype(np.float32)
        self.contact = rng.integers(0, 3, (n, grid, grid, grid))

    def __len__(self):
        return len(self.occ)

    def __getitem__(self, i):
        targ = self.contact[i].astype(np.intc)  # root-cause
        return torch.from_numpy(self.occ[i]), torch.from_numpy(targ)


class VoxNetSeg(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv3d(8, n_classes, 1))

    def forward(self, x):
        return self.net(x)


def masked_ce(logits, targ, occ):
    mask = occ.squeeze(1) > 0
    logits = logits.permute(0, 2, 3, 4, 1)[mask]
    return nn.functional.cross_entropy(logits, targ[mask])  # fails-here


loader = DataLoader(VoxelContactDataset(), batch_size=4, shuffle=True)
model = VoxNetSeg()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for occ, targ in loader:
    loss = masked_ce(model(occ), targ, occ)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
