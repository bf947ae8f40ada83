"""Land-cover segmentation whose to_tensor() still returns the mask as float32 like the image; the collate function converts the stacked mask with .long() before the task's cross-entropy
source: https://github.com/torchgeo/terratorch/pull/644
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- transforms.py
def to_tensor(sample):
    out = {}
    out["image"] = torch.from_numpy(sample["image"].astype(np.float32) / 10000.0)
    out["mask"] = torch.from_numpy(sample["mask"].astype(np.float32))
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
    batch = {k: torch.stack([s[k] for s in samples]) for k in samples[0]}
    batch["mask"] = batch["mask"].long()
    return batch


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
        loss = F.cross_entropy(logits, batch["mask"], ignore_index=255)
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
