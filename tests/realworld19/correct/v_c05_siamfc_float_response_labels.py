"""SiamFC tracker training whose _create_labels() builds the response-map labels with np.where(..., 1.0, 0.0) and casts them to float32, matching the logits in the balanced BCE-with-logits loss
source: https://github.com/huanglianghua/siamfc-pytorch/issues/37
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class AlexNetLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 5, 2), nn.ReLU(), nn.MaxPool2d(2, 2),
                                      nn.Conv2d(16, 32, 3), nn.ReLU(), nn.Conv2d(32, 32, 3))

    def forward(self, x):
        return self.features(x)


class SiamFCHead(nn.Module):
    def __init__(self, out_scale=0.001):
        super().__init__()
        self.out_scale = out_scale

    def forward(self, z, x):
        nz = z.size(0)
        nx, c, h, w = x.size()
        out = F.conv2d(x.view(-1, nz * c, h, w), z, groups=nz)
        return out.view(nx, -1, out.size(-2), out.size(-1)) * self.out_scale


class BalancedLoss(nn.Module):
    def __init__(self, neg_weight=1.0):
        super().__init__()
        self.neg_weight = neg_weight

    def forward(self, input, target):
        pos_mask, neg_mask = target == 1, target == 0
        weight = torch.zeros_like(input)
        weight[pos_mask] = 1 / pos_mask.sum().item()
        weight[neg_mask] = self.neg_weight / neg_mask.sum().item()
        return F.binary_cross_entropy_with_logits(input, target, weight, reduction="sum")


class TrackerSiamFC:
    def __init__(self, r_pos=2, total_stride=8):
        self.backbone, self.head = AlexNetLite(), SiamFCHead()
        self.criterion = BalancedLoss()
        self.params = list(self.backbone.parameters())
        self.optimizer = torch.optim.SGD(self.params, lr=1e-2, momentum=0.9, weight_decay=5e-4)
        self.r_pos, self.total_stride = r_pos, total_stride
        self.labels = None

    def _create_labels(self, size):
        if self.labels is not None and self.labels.shape == size:
            return self.labels
        n, c, h, w = size
        x, y = np.meshgrid(np.arange(w) - (w - 1) / 2, np.arange(h) - (h - 1) / 2)
        dist = np.abs(x) + np.abs(y)
        labels = np.where(dist <= self.r_pos / self.total_stride * 4, 1.0, 0.0).astype(np.float32)
        self.labels = torch.from_numpy(np.tile(labels, (n, c, 1, 1)))
        return self.labels

    def train_step(self, z, x):
        responses = self.head(self.backbone(z), self.backbone(x))
        loss = self.criterion(responses, self._create_labels(responses.size()))
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    tracker = TrackerSiamFC()
    exemplar, search = torch.rand(4, 3, 63, 63), torch.rand(4, 3, 127, 127)
    for epoch in range(2):
        print("epoch", epoch, "loss", tracker.train_step(exemplar, search))
