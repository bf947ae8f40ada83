"""LiDAR-based 3D human pose estimation (LIP-style distillation stage): point-cloud sequences and joint targets are cached as .npy files in float64, the Dataset returns torch.from_numpy of them, and the train loop only calls .to(device), so a double point cloud reaches the float32 PointNet encoder
source: https://github.com/4DVLab/LIP/issues/2
reported-error: RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same (train_dis.py: seq_pc = seq_pc.to(device) should be seq_pc.to(device).float())
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 48
root-cause: line 33
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def write_fake_sequences(root, n_seq=6, t=4, n_pts=64, n_joints=15, seed=0):
    rng = np.random.default_rng(seed)
    for i in range(n_seq):
        np.save(os.path.join(root, f"seq{i:03d}_pc.npy"), rng.normal(size=(t, n_pts, 3)))
        np.save(os.path.join(root, f"seq{i:03d}_gt.npy"), rng.normal(size=(t, n_joints * 3)).astype(np.float32))


class LidarSeqDataset(Dataset):
    def __init__(self, root):
        self.ids = sorted(f[:6] for f in os.listdir(root) if f.endswith("_pc.npy"))
        self.root = root

    def __len__(self):
        return len(self.ids)

    def __getitem__(self, i):
        pc = torch.from_numpy(np.load(os.path.join(self.root, f"{self.ids[i]}_pc.npy")))  # root-cause
        gt = torch.from_numpy(np.load(os.path.join(self.root, f"{self.ids[i]}_gt.npy")))
        return pc, gt


class PointNetPose(nn.Module):
    def __init__(self, n_joints=15):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(3, 32, 1), nn.ReLU(), nn.Conv1d(32, 64, 1), nn.ReLU())
        self.gru = nn.GRU(64, 64, batch_first=True)
        self.head = nn.Linear(64, n_joints * 3)

    def forward(self, seq_pc):
        b, t, n, _ = seq_pc.shape
        x = seq_pc.reshape(b * t, n, 3).transpose(1, 2)
        feat = self.mlp(x).max(dim=2).values.reshape(b, t, -1)  # fails-here
        h, _ = self.gru(feat)
        return self.head(h)


def train(root, device="cpu", epochs=2):
    loader = DataLoader(LidarSeqDataset(root), batch_size=2, shuffle=True)
    model = PointNetPose().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for seq_pc, seq_gt in loader:
            seq_pc = seq_pc.to(device)
            seq_gt = seq_gt.to(device)
            loss = nn.functional.mse_loss(model(seq_pc), seq_gt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    root = tempfile.mkdtemp()
    write_fake_sequences(root)
    train(root)
