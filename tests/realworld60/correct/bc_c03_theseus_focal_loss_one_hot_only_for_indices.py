"""Image classification with theseus as in bc03 (kaylode/theseus #26) with the fix of PR #27: FocalLoss builds one-hot targets with F.one_hot only when the targets are class indices (outputs.shape != targets.shape) and passes the Mixup/Cutmix soft targets through as they are; the collator weights leave some batches untouched, so both kinds of targets reach the loss; the int64 LongTensor labels of collate_fn, the .float() after one_hot and the float soft targets of the collator are kept
source: https://github.com/kaylode/theseus/issues/26
reported-error: (none filed; the fixed situation of bc03)
outcome: ok
root-cause: -
expect: none
"""
import math
from typing import Any, Dict, List

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
np.random.seed(0)
NUM_CLASSES = 5


def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2, reduction="none"):
    """torchvision.ops.sigmoid_focal_loss (re-typed)."""
    p = torch.sigmoid(inputs)
    ce_loss = nn.functional.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "mean":
        loss = loss.mean()
    elif reduction == "sum":
        loss = loss.sum()
    return loss


class FocalLoss(nn.Module):
    r"""FocalLoss (theseus/classification/losses/focal_loss.py)"""

    def __init__(self, alpha=0.25, gamma=2, reduction="mean", **kwargs):
        super().__init__()
        self.gamma = gamma
        self.reduction = reduction
        self.alpha = alpha

    def forward(self, outputs: Dict[str, Any], batch: Dict[str, Any], device: torch.device):
        outputs = outputs["outputs"]
        targets = batch["targets"].to(device)
        num_classes = outputs.shape[-1]

        # Need to be one hot encoding
        if outputs.shape != targets.shape:
            targets = nn.functional.one_hot(targets, num_classes=num_classes)
            targets = targets.float().squeeze()

        loss = sigmoid_focal_loss(outputs, targets, self.alpha, self.gamma, self.reduction)
        loss_dict = {"L": loss.item()}
        return loss, loss_dict


class RandomMixup(nn.Module):
    """theseus/classification/augmentations/custom.py (from torchvision's references/classification/transforms.py)."""

    def __init__(self, num_classes: int, p: float = 0.5, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.p = p
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, batch, target):
        if target.dtype != torch.int64:
            raise TypeError("Target dtype should be torch.int64. Got {}".format(target.dtype))
        if not self.inplace:
            batch = batch.clone()
            target = target.clone()
        if target.ndim == 1:
            target = torch.nn.functional.one_hot(target, num_classes=self.num_classes).to(dtype=batch.dtype)
        if torch.rand(1).item() >= self.p:
            return batch, target
        batch_rolled = batch.roll(1, 0)
        target_rolled = target.roll(1, 0)
        lambda_param = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        batch_rolled.mul_(1.0 - lambda_param)
        batch.mul_(lambda_param).add_(batch_rolled)
        target_rolled.mul_(1.0 - lambda_param)
        target.mul_(lambda_param).add_(target_rolled)
        return batch, target


class RandomCutmix(nn.Module):
    def __init__(self, num_classes: int, p: float = 0.5, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.num_classes = num_classes
        self.p = p
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, batch, target):
        if target.dtype != torch.int64:
            raise TypeError("Target dtype should be torch.int64. Got {}".format(target.dtype))
        if not self.inplace:
            batch = batch.clone()
            target = target.clone()
        if target.ndim == 1:
            target = torch.nn.functional.one_hot(target, num_classes=self.num_classes).to(dtype=batch.dtype)
        if torch.rand(1).item() >= self.p:
            return batch, target
        batch_rolled = batch.roll(1, 0)
        target_rolled = target.roll(1, 0)
        lambda_param = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        W, H = batch.shape[-1], batch.shape[-2]
        r_x = torch.randint(W, (1,))
        r_y = torch.randint(H, (1,))
        r = 0.5 * math.sqrt(1.0 - lambda_param)
        r_w_half = int(r * W)
        r_h_half = int(r * H)
        x1 = int(torch.clamp(r_x - r_w_half, min=0))
        y1 = int(torch.clamp(r_y - r_h_half, min=0))
        x2 = int(torch.clamp(r_x + r_w_half, max=W))
        y2 = int(torch.clamp(r_y + r_h_half, max=H))
        batch[:, :, y1:y2, x1:x2] = batch_rolled[:, :, y1:y2, x1:x2]
        lambda_param = float(1.0 - (x2 - x1) * (y2 - y1) / (W * H))
        target_rolled.mul_(1.0 - lambda_param)
        target.mul_(lambda_param).add_(target_rolled)
        return batch, target


class MixupCutmixCollator:
    """theseus/classification/datasets/mixupcutmix_collator.py"""

    def __init__(self, dataset, mixup_alpha: float = 0.2, cutmix_alpha: float = 1.0, weight: List[float] = None):
        weight = [0.5, 0.5] if weight is None else weight
        assert sum(weight) <= 1.0, "Sum of weight should be smaller than 1.0"
        self.mixup_transforms = [RandomMixup(dataset.num_classes, p=1.0, alpha=mixup_alpha),
                                 RandomCutmix(dataset.num_classes, p=1.0, alpha=cutmix_alpha), None]
        self.weight = weight
        self.weight.append(1.0 - sum(weight))

    def __call__(self, batch):
        transform = np.random.choice(self.mixup_transforms, p=self.weight)
        if transform is not None:
            imgs, targets = transform(batch["inputs"], batch["targets"].squeeze(1))
            batch["inputs"] = imgs
            batch["targets"] = targets
        return batch


class ChainCollatorWrapper:
    def __init__(self, pre_collate_fns: List):
        self.pre_collate_fns = pre_collate_fns

    def __call__(self, batch):
        for fn in self.pre_collate_fns:
            batch = fn(batch)
        return batch


class ClassificationDataset(torch.utils.data.Dataset):
    """theseus ClassificationDataset with in-memory images instead of image files."""

    def __init__(self, n):
        self.num_classes = NUM_CLASSES
        self.labels = np.random.randint(0, NUM_CLASSES, size=n)
        self.images = torch.randn(n, 3, 32, 32) + torch.from_numpy(self.labels).float().view(n, 1, 1, 1) * 0.5

    def __getitem__(self, idx):
        return {"input": self.images[idx], "target": {"labels": [int(self.labels[idx])]}, "img_name": f"{idx}.jpg"}

    def __len__(self):
        return len(self.labels)

    def collate_fn(self, batch):
        imgs = torch.stack([s["input"] for s in batch])
        targets = torch.stack([torch.LongTensor(s["target"]["labels"]) for s in batch])
        img_names = [s["img_name"] for s in batch]
        return {"inputs": imgs, "targets": targets, "img_names": img_names}


class DataLoaderWithCollator(torch.utils.data.DataLoader):
    def __init__(self, dataset, collate_fn=None, **kwargs):
        if collate_fn is not None:
            collate_fn = ChainCollatorWrapper([dataset.collate_fn, collate_fn])
        else:
            collate_fn = dataset.collate_fn
        super().__init__(dataset=dataset, collate_fn=collate_fn, **kwargs)


class TinyConvNet(nn.Module):
    """Stands in for BaseTimmModel(convnext_small): returns {'outputs': logits}."""

    def __init__(self, num_classes):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.head = nn.Linear(16 * 16, num_classes)

    def forward(self, x):
        return {"outputs": self.head(self.features(x))}


class ModelWithLoss(nn.Module):
    def __init__(self, model, criterion, device):
        super().__init__()
        self.model = model
        self.criterion = criterion
        self.device = device

    def forward(self, batch):
        outputs = self.model(batch["inputs"].to(self.device))
        loss, loss_dict = self.criterion(outputs, batch, self.device)
        return {"loss": loss, "loss_dict": loss_dict}

    def training_step(self, batch):
        return self.forward(batch)


device = torch.device("cpu")
trainset = ClassificationDataset(64)
trainloader = DataLoaderWithCollator(trainset, collate_fn=MixupCutmixCollator(trainset, weight=[0.3, 0.3]),
                                     batch_size=16, shuffle=True)
model = ModelWithLoss(TinyConvNet(NUM_CLASSES), FocalLoss(), device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

seen = set()
for epoch in range(2):
    for i, batch in enumerate(trainloader):
        seen.add(str(batch["targets"].dtype))
        outputs = model.training_step(batch)
        loss = outputs["loss"]
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    print("epoch", epoch, outputs["loss_dict"])
print("target dtypes seen:", sorted(seen))
