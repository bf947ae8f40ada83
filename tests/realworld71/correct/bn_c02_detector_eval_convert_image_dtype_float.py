"""Detector evaluation of bn02 (pytorch/vision #3228) done right: the test images are still decoded as uint8 CHW tensors (read_image style) but converted with convert_image_dtype to float in [0, 1] before the model, and GeneralizedRCNNTransform.normalize carries the floating-point check torchvision added after the report; mean/std built in the image's (now float32) dtype give finite validation losses and the detector finds the boxes
source: https://github.com/pytorch/vision/issues/3228
reported-error: (none; the fixed situation of bn02)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
RUN_DIR = tempfile.mkdtemp(prefix="det_eval_")


class GeneralizedRCNNTransform(nn.Module):
    """Normalization and batching as in torchvision 0.8.2 (no floating-point check yet)."""

    def __init__(self, image_mean, image_std, size_divisible=32):
        super().__init__()
        self.image_mean, self.image_std, self.size_divisible = image_mean, image_std, size_divisible

    def normalize(self, image):
        if not image.is_floating_point():
            raise TypeError(f"Expected input images to be of floating type (in range [0, 1]), but found type {image.dtype} instead")
        dtype, device = image.dtype, image.device
        mean = torch.as_tensor(self.image_mean, dtype=dtype, device=device)
        std = torch.as_tensor(self.image_std, dtype=dtype, device=device)
        return (image - mean[:, None, None]) / std[:, None, None]

    def batch_images(self, images):
        max_size = [max(s) for s in zip(*[img.shape for img in images])]
        stride = float(self.size_divisible)
        max_size[1] = int(math.ceil(float(max_size[1]) / stride) * stride)
        max_size[2] = int(math.ceil(float(max_size[2]) / stride) * stride)
        batched_imgs = images[0].new_full([len(images)] + max_size, 0)
        for img, pad_img in zip(images, batched_imgs):
            pad_img[: img.shape[0], : img.shape[1], : img.shape[2]].copy_(img)
        return batched_imgs

    def forward(self, images, targets=None):
        images = [self.normalize(img) for img in images]
        return self.batch_images(images), targets


class TinyDetector(nn.Module):
    """One-box-per-image detector: centre heatmap + box size regression on a stride-8 grid."""

    def __init__(self):
        super().__init__()
        self.transform = GeneralizedRCNNTransform([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU()
        )
        self.objectness = nn.Conv2d(32, 1, 1)
        self.box_reg = nn.Conv2d(32, 4, 1)

    def forward(self, images, targets=None):
        x, targets = self.transform(images, targets)
        feats = self.backbone(x)
        obj = self.objectness(feats).flatten(1)
        reg = self.box_reg(feats).flatten(2)
        w = feats.shape[-1]
        if self.training:
            boxes = torch.stack([t["boxes"][0] for t in targets])
            cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
            idx = (cy // 8).long() * w + (cx // 8).long()
            loss_obj = F.cross_entropy(obj, idx)
            pred = reg[torch.arange(len(idx)), :, idx]
            loss_box = F.smooth_l1_loss(pred, boxes / 64.0)
            return {"loss_objectness": loss_obj, "loss_box_reg": loss_box}
        scores, idx = obj.softmax(1).max(1)
        boxes = reg[torch.arange(len(idx)), :, idx] * 64.0
        return [{"boxes": b[None], "scores": s[None], "labels": torch.ones(1, dtype=torch.int64)} for b, s in zip(boxes, scores)]


def render(rng, n):
    """Synthetic 'photos': a bright square on a noisy background, as HxWx3 uint8 arrays plus the box."""
    out = []
    for _ in range(n):
        img = rng.integers(0, 60, (64, 64, 3)).astype(np.uint8)
        x0, y0 = rng.integers(4, 36, 2)
        s = int(rng.integers(12, 24))
        img[y0 : y0 + s, x0 : x0 + s] = rng.integers(180, 255, 3)
        out.append((img, torch.tensor([[x0, y0, x0 + s, y0 + s]], dtype=torch.float32)))
    return out


def to_tensor(pic):
    return torch.from_numpy(pic).permute(2, 0, 1).float().div(255)


def read_image(pic):
    """torchvision.io.read_image: decodes to a uint8 CHW tensor."""
    return torch.from_numpy(np.ascontiguousarray(pic)).permute(2, 0, 1)


def convert_image_dtype(image, dtype=torch.float):
    """torchvision.transforms.functional.convert_image_dtype for uint8 -> float."""
    return image.to(dtype) / 255


def box_iou(a, b):
    lt, rb = torch.max(a[:, :2], b[:, :2]), torch.min(a[:, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])
    return inter / (area(a) + area(b) - inter)


# --- fine-tuning run (train.py, ToTensor-style float images), checkpoint saved ---
rng = np.random.default_rng(0)
model = TinyDetector()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
train_set = render(rng, 64)
for it in range(150):
    batch = [train_set[i] for i in rng.integers(0, len(train_set), 16)]
    losses = model([to_tensor(img) for img, _ in batch], [{"boxes": b} for _, b in batch])
    opt.zero_grad()
    sum(losses.values()).backward()
    opt.step()
torch.save({"model": model.state_dict()}, os.path.join(RUN_DIR, "model_final.pth"))
print("train losses:", {k: round(v.item(), 4) for k, v in losses.items()})

# --- evaluate.py: rebuild, load the checkpoint, score the test images ---
detector = TinyDetector()
detector.load_state_dict(torch.load(os.path.join(RUN_DIR, "model_final.pth"), map_location="cpu")["model"])
test_set = render(np.random.default_rng(1), 32)
images = [convert_image_dtype(read_image(img)) for img, _ in test_set]
targets = [{"boxes": b} for _, b in test_set]
with torch.no_grad():
    detector.train()
    val_losses = detector(images, targets)
    detector.eval()
    detections = detector(images)
for k, v in val_losses.items():
    print(f"val {k} {v.item():.4f}")
hits = [(d["scores"][0] > 0.05) & (box_iou(d["boxes"], t["boxes"])[0] >= 0.3) for d, t in zip(detections, targets)]
print(f"mean score {torch.cat([d['scores'] for d in detections]).mean().item():.4f}  recall@0.3 {float(sum(hits)) / len(hits):.2f}")
