"""Indoor point-cloud semantic segmentation: the data pipeline's LoadPointsAnnotations transform reads the per-point class file with np.fromfile(path, dtype=np.int32) (changed from int64 to fix an index overflow), and the int32 labels reach the loss of a PointNet-style segmenter
source: https://github.com/open-mmlab/mmdetection3d/issues/1600
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss2d_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 61
root-cause: line 20
expect: DG006
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class LoadPointsAnnotations:
    seg_3d_dtype = np.int32

    def __call__(self, results):
        results["pts_semantic_mask"] = np.fromfile(results["mask_path"], dtype=self.seg_3d_dtype)  # root-cause
        results["points"] = np.fromfile(results["pts_path"], dtype=np.float32).reshape(-1, 6)
        return results


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, results):
        for t in self.transforms:
            results = t(results)
        return results


class PointSeg(nn.Module):
    def __init__(self, n_classes=13):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(6, 32, 1), nn.ReLU(), nn.Conv1d(32, n_classes, 1))

    def forward(self, pts):
        return self.mlp(pts.transpose(1, 2))


def write_room(root, k, rng, n=512):
    pts, mask = os.path.join(root, f"room{k}.bin"), os.path.join(root, f"room{k}_sem.bin")
    rng.random((n, 6), dtype=np.float32).tofile(pts)
    rng.integers(0, 13, n).astype(np.int32).tofile(mask)
    return {"pts_path": pts, "mask_path": mask}


root = tempfile.mkdtemp()
rng = np.random.default_rng(0)
pipeline = Compose([LoadPointsAnnotations()])
rooms = [pipeline(write_room(root, k, rng)) for k in range(4)]
model = PointSeg()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for r in rooms:
        pts = torch.from_numpy(r["points"]).unsqueeze(0)
        labels = torch.from_numpy(r["pts_semantic_mask"]).unsqueeze(0)
        loss = nn.functional.cross_entropy(model(pts), labels)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
print("loss", loss.item())
