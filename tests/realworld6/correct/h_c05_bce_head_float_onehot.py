"""Classifier with a sigmoid (BCE) head and no batch augmentations: the one-hot target built from integer gt labels is converted to float before the loss (the merged fix)
source: https://github.com/open-mmlab/mmpretrain/pull/1525
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def binary_cross_entropy(pred, label, reduction="mean"):
    loss = F.binary_cross_entropy_with_logits(pred, label.type_as(pred), reduction="none")
    return loss.mean() if reduction == "mean" else loss.sum()


class LinearClsHead(nn.Module):
    def __init__(self, num_classes=6, in_channels=32):
        super().__init__()
        self.num_classes = num_classes
        self.fc = nn.Linear(in_channels, num_classes)

    def loss(self, feats, data_samples):
        cls_score = self.fc(feats)
        target = torch.cat([d["gt_label"] for d in data_samples])
        if target.dim() == 1:
            target = F.one_hot(target, num_classes=self.num_classes).float()
        return {"loss": binary_cross_entropy(cls_score, target)}


if __name__ == "__main__":
    backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
    head = LinearClsHead()
    optimizer = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.01, momentum=0.9)
    for it in range(3):
        data_samples = [{"gt_label": torch.randint(0, 6, (1,))} for _ in range(8)]
        losses = head.loss(backbone(torch.randn(8, 3, 32, 32)), data_samples)
        optimizer.zero_grad()
        losses["loss"].backward()
        optimizer.step()
        print(f"Epoch(train) [1][{it + 1}/3] loss: {losses['loss'].item():.4f}")
