"""Image classifier with a multi-label-style BCE head (mmpretrain CrossEntropyLoss(use_sigmoid=True)) trained without batch augmentations, so the one-hot target built from integer gt labels stays int64
source: https://github.com/open-mmlab/mmpretrain/pull/1525
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long (BCE loss without Mixup/CutMix, which would otherwise produce float soft labels)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 20
root-cause: line 53
expect: DG007
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

cfg = dict(
    model=dict(num_classes=6, in_channels=32, loss=dict(type="CrossEntropyLoss", use_sigmoid=True, loss_weight=1.0)),
    train_cfg=dict(augments=None),
    optim=dict(lr=0.01, momentum=0.9),
)


def binary_cross_entropy(pred, label, weight=None, reduction="mean", class_weight=None):
    loss = F.binary_cross_entropy_with_logits(pred, label, weight=class_weight, reduction="none")  # fails-here
    if weight is not None:
        loss = loss * weight.float()
    return loss.mean() if reduction == "mean" else loss.sum()


class CrossEntropyLoss(nn.Module):
    def __init__(self, use_sigmoid=False, loss_weight=1.0, **kwargs):
        super().__init__()
        self.use_sigmoid = use_sigmoid
        self.loss_weight = loss_weight
        self.cls_criterion = binary_cross_entropy if use_sigmoid else F.cross_entropy

    def forward(self, cls_score, label, **kwargs):
        return self.loss_weight * self.cls_criterion(cls_score, label, **kwargs)


class LinearClsHead(nn.Module):
    def __init__(self, num_classes, in_channels, loss):
        super().__init__()
        self.num_classes = num_classes
        self.fc = nn.Linear(in_channels, num_classes)
        loss = dict(loss)
        loss.pop("type")
        self.loss_module = CrossEntropyLoss(**loss)

    def loss(self, feats, data_samples):
        cls_score = self.fc(feats)
        if "gt_score" in data_samples[0]:
            target = torch.stack([d["gt_score"] for d in data_samples])
        else:
            target = torch.cat([d["gt_label"] for d in data_samples])
        if self.loss_module.use_sigmoid and target.dim() == 1:
            target = F.one_hot(target, num_classes=self.num_classes)  # root-cause
        return {"loss": self.loss_module(cls_score, target)}


class ImageClassifier(nn.Module):
    def __init__(self, model, train_cfg):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = LinearClsHead(**model)
        self.augments = train_cfg["augments"]

    def loss(self, inputs, data_samples):
        if self.augments is not None:
            inputs, data_samples = self.augments(inputs, data_samples)
        return self.head.loss(self.backbone(inputs), data_samples)


if __name__ == "__main__":
    model = ImageClassifier(cfg["model"], cfg["train_cfg"])
    optimizer = torch.optim.SGD(model.parameters(), **cfg["optim"])
    for it in range(3):
        inputs = torch.randn(8, 3, 32, 32)
        data_samples = [{"gt_label": torch.randint(0, 6, (1,))} for _ in range(8)]
        losses = model.loss(inputs, data_samples)
        optimizer.zero_grad()
        losses["loss"].backward()
        optimizer.step()
        print(f"Epoch(train) [1][{it + 1}/3] loss: {losses['loss'].item():.4f}")
