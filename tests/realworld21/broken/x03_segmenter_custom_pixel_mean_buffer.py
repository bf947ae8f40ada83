"""Instance-segmentation trainer (detectron2-style meta-architecture) on a custom aerial dataset: the per-channel mean and std are computed from the training images with NumPy and stored in the config as arrays; the model registers them as buffers with torch.tensor(cfg value), which keeps float64, so the normalised images reach the float32 backbone as double
source: https://github.com/facebookresearch/detectron2/issues/5026
reported-error: RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same (custom MODEL.PIXEL_MEAN / PIXEL_STD in preprocessing, trainer.train())
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 41
root-cause: line 30
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- tools/dataset_stats.py
def compute_pixel_stats(images):
    stack = np.stack(images)
    return stack.mean(axis=(0, 1, 2)), stack.std(axis=(0, 1, 2))


def get_cfg(images):
    mean, std = compute_pixel_stats(images)
    return {"MODEL": {"PIXEL_MEAN": mean, "PIXEL_STD": std, "NUM_CLASSES": 3}, "SOLVER": {"BASE_LR": 1e-3}}


# ---- modeling/meta_arch.py
class TinyMaskNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        m = cfg["MODEL"]
        self.register_buffer("pixel_mean", torch.tensor(m["PIXEL_MEAN"]).view(-1, 1, 1), False)  # root-cause
        self.register_buffer("pixel_std", torch.tensor(m["PIXEL_STD"]).view(-1, 1, 1), False)
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.mask_head = nn.Conv2d(16, m["NUM_CLASSES"], 1)

    def preprocess_image(self, batched_inputs):
        images = torch.stack([x["image"].float() for x in batched_inputs])
        return (images - self.pixel_mean) / self.pixel_std

    def forward(self, batched_inputs):
        images = self.preprocess_image(batched_inputs)
        features = self.backbone(images)  # fails-here
        logits = self.mask_head(features)
        targets = torch.stack([x["sem_seg"] for x in batched_inputs])
        return {"loss_mask": F.cross_entropy(logits, targets)}


# ---- engine/train_loop.py
def run_step(model, optimizer, data):
    loss_dict = model(data)
    losses = sum(loss_dict.values())
    optimizer.zero_grad()
    losses.backward()
    optimizer.step()
    return losses.item()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    raw = [rng.integers(0, 256, size=(32, 32, 3), dtype=np.uint8) for _ in range(8)]
    cfg = get_cfg(raw)
    model = TinyMaskNet(cfg)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["SOLVER"]["BASE_LR"])
    data = [{"image": torch.from_numpy(im).permute(2, 0, 1), "sem_seg": torch.from_numpy(rng.integers(0, 3, size=(32, 32)))} for im in raw]
    for it in range(3):
        print(f"iter {it}: loss {run_step(model, optimizer, data[:4]):.4f}")
