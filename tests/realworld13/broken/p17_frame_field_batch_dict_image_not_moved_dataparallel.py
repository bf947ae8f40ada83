"""Building-polygonization trainer with a DataParallel wrapper (plain module on CPU); batch_to_device() moves only the listed tensor keys of the collated batch dict, and "image" is missing from that list, so the CPU image meets the CUDA model
source: https://github.com/Lydorn/Polygonization-by-Frame-Field-Learning/issues/42
reported-error: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor (not run on a GPU here) at line 51; on CPU: ok
root-cause: line 13
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

MOVE_KEYS = ("gt_polygons_image",)  # root-cause


class TileDataset(Dataset):
    def __init__(self, n=12, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
        self.masks = (rng.random((n, size, size)) > 0.7).astype(np.float32)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return {"image": self.images[i], "gt_polygons_image": self.masks[i]}


def collate_fn(samples):
    images = torch.from_numpy(np.stack([s["image"] for s in samples])).permute(0, 3, 1, 2).float() / 255
    return {
        "image": images,
        "gt_polygons_image": torch.from_numpy(np.stack([s["gt_polygons_image"] for s in samples]))[:, None],
        "image_mean": images.mean(dim=(0, 2, 3)),
        "image_std": images.std(dim=(0, 2, 3)),
    }


def batch_to_device(batch, device):
    return {k: (v.to(device) if k in MOVE_KEYS else v) for k, v in batch.items()}


class FrameFieldNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.seg_head = nn.Conv2d(16, 1, 1)

    def forward(self, batch):
        x = (batch["image"] - batch["image_mean"][None, :, None, None]) / batch["image_std"][None, :, None, None]
        return self.seg_head(self.backbone(x))  # fails-here


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = FrameFieldNet().to(device)
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for batch in DataLoader(TileDataset(), batch_size=4, collate_fn=collate_fn):
    batch = batch_to_device(batch, device)
    loss = nn.functional.binary_cross_entropy_with_logits(model(batch), batch["gt_polygons_image"])
    opt.zero_grad()
    loss.backward()
    opt.step()
print("seg loss", loss.item())
