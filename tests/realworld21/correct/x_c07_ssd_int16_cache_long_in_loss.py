"""VOC-style SSD trainer that keeps the int16 label cache and the int16 prior labels, and converts the labels with .long() inside MultiboxLoss right before cross_entropy
source: https://github.com/qfgaohao/pytorch-ssd/pull/74
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- vision/datasets/voc_dataset.py
class VOCDataset(Dataset):
    def __init__(self, n=32, n_priors=16, num_classes=4, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.normal(size=(n, 3, 32, 32)).astype(np.float32)
        self.n_priors, self.num_classes = n_priors, num_classes
        self.data = [self._read_data(rng) for _ in range(n)]

    def _read_data(self, rng):
        k = rng.integers(1, 4)
        boxes = rng.uniform(0, 1, size=(k, 4)).astype(np.float32)
        labels = rng.integers(1, self.num_classes, size=k).astype(np.int16)
        return {"boxes": boxes, "labels": labels}

    def match_prior(self, boxes, labels):
        assign = np.arange(self.n_priors) % (len(labels) + 1)
        prior_labels = np.where(assign < len(labels), labels[np.minimum(assign, len(labels) - 1)], 0).astype(labels.dtype)
        prior_boxes = boxes[np.minimum(assign, len(boxes) - 1)]
        return torch.from_numpy(prior_boxes), torch.from_numpy(prior_labels)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        boxes, labels = self.match_prior(self.data[i]["boxes"], self.data[i]["labels"])
        return torch.from_numpy(self.images[i]), boxes, labels


# ---- vision/nn/multibox_loss.py
class MultiboxLoss(nn.Module):
    def forward(self, confidence, predicted_locations, labels, gt_locations):
        num_classes = confidence.size(2)
        classification_loss = F.cross_entropy(confidence.reshape(-1, num_classes), labels.reshape(-1).long())
        pos_mask = labels > 0
        smooth_l1_loss = F.smooth_l1_loss(predicted_locations[pos_mask], gt_locations[pos_mask])
        return smooth_l1_loss, classification_loss


# ---- vision/ssd/ssd.py
class TinySSD(nn.Module):
    def __init__(self, num_classes=4, n_priors=16):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.cls = nn.Conv2d(16, num_classes, 1)
        self.reg = nn.Conv2d(16, 4, 1)
        self.num_classes = num_classes

    def forward(self, x):
        f = self.base(x)
        conf = self.cls(f).flatten(2).transpose(1, 2)
        locs = self.reg(f).flatten(2).transpose(1, 2)
        return conf, locs


if __name__ == "__main__":
    torch.manual_seed(0)
    net, criterion = TinySSD(), MultiboxLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-2, momentum=0.9)
    for epoch in range(2):
        for images, boxes, labels in DataLoader(VOCDataset(), batch_size=8, shuffle=True):
            confidence, locations = net(images)
            regression_loss, classification_loss = criterion(confidence, locations, labels, boxes)
            loss = regression_loss + classification_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
