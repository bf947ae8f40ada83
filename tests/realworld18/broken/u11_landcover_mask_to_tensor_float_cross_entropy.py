"""Land-cover segmentation module: the shared to_tensor() helper converts both the image and the class mask to float32 (mask values 0..5 kept), so the semantic segmentation task passes a float mask to F.cross_entropy
source: https://github.com/torchgeo/terratorch/pull/644
reported-error: The ground truth masks were being converted to float32 for the classification task ... RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Float'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 47
root-cause: line 18
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- transforms.py
def to_tensor(sample):
    out = {}
    out["image"] = torch.from_numpy(sample["image"].astype(np.float32) / 10000.0)
    out["mask"] = torch.from_numpy(sample["mask"].astype(np.float32))  # root-cause
    return out


# ---- datamodule.py
def make_samples(n=24, bands=4, size=32, n_classes=6, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        yield {
            "image": rng.integers(0, 10000, size=(bands, size, size), dtype=np.uint16),
            "mask": rng.integers(0, n_classes, size=(size, size), dtype=np.uint8),
        }


def collate(samples):
    return {k: torch.stack([s[k] for s in samples]) for k in samples[0]}


# ---- task.py
class SemanticSegmentationTask:
    def __init__(self, bands=4, n_classes=6):
        self.model = nn.Sequential(
            nn.Conv2d(bands, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, n_classes, 1),
        )
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-3)

    def training_step(self, batch):
        logits = self.model(batch["image"])
        loss = F.cross_entropy(logits, batch["mask"], ignore_index=255)  # fails-here
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


samples = [to_tensor(s) for s in make_samples()]
task = SemanticSegmentationTask()
for epoch in range(2):
    for i in range(0, len(samples), 8):
        loss = task.training_step(collate(samples[i:i + 8]))
    print("epoch", epoch, "loss", round(loss, 4))
