"""SSD retraining on an Open Images subset whose dataset builds the per-image box labels with np.array(..., dtype=np.int64), so MatchPrior's per-prior labels stay int64 and the MultiboxLoss cross-entropy gets a Long class-index target
source: https://github.com/qfgaohao/pytorch-ssd/issues/66
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- vision/datasets/open_images.py
class OpenImagesDataset(Dataset):
    def __init__(self, annotations, class_names, transform=None):
        self.class_names = ["BACKGROUND"] + class_names
        self.class_dict = {name: i for i, name in enumerate(self.class_names)}
        self.transform = transform
        self.data = self._read_data(annotations)

    def _read_data(self, annotations):
        data = []
        for image_id, group in annotations.groupby("ImageID"):
            boxes = group[["XMin", "YMin", "XMax", "YMax"]].values.astype(np.float32)
            labels = np.array([self.class_dict[name] for name in group["ClassName"]], dtype=np.int64)
            data.append({"image_id": image_id, "boxes": boxes, "labels": labels})
        return data

    def __getitem__(self, index):
        info = self.data[index]
        image = np.random.default_rng(index).random((3, 32, 32), dtype=np.float32)
        boxes, labels = self.transform(info["boxes"], info["labels"])
        return torch.from_numpy(image), boxes, labels

    def __len__(self):
        return len(self.data)


# ---- vision/ssd/ssd.py (MatchPrior) and box_utils.py
class MatchPrior:
    def __init__(self, priors, iou_threshold=0.5):
        self.priors = priors
        self.iou_threshold = iou_threshold

    def __call__(self, gt_boxes, gt_labels):
        gt_boxes, gt_labels = torch.from_numpy(gt_boxes), torch.from_numpy(gt_labels)
        centers = (gt_boxes[:, :2] + gt_boxes[:, 2:]) / 2
        dist = torch.cdist(self.priors[:, :2], centers)
        best_target = dist.argmin(1)
        labels = gt_labels[best_target]
        labels[dist.min(1).values > self.iou_threshold] = 0
        return gt_boxes[best_target], labels


class MultiboxLoss(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes

    def forward(self, confidence, predicted_locations, labels, gt_locations):
        pos_mask = labels > 0
        classification_loss = F.cross_entropy(confidence.reshape(-1, self.num_classes), labels.reshape(-1), reduction="sum")
        smooth_l1_loss = F.smooth_l1_loss(predicted_locations[pos_mask], gt_locations[pos_mask], reduction="sum")
        num_pos = max(pos_mask.sum().item(), 1)
        return smooth_l1_loss / num_pos, classification_loss / num_pos


class TinySSD(nn.Module):
    def __init__(self, num_classes, num_priors):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.cls = nn.Linear(16 * 16, num_priors * num_classes)
        self.loc = nn.Linear(16 * 16, num_priors * 4)
        self.num_classes, self.num_priors = num_classes, num_priors

    def forward(self, x):
        f = self.backbone(x).flatten(1)
        return self.cls(f).view(-1, self.num_priors, self.num_classes), self.loc(f).view(-1, self.num_priors, 4)


def train(loader, net, criterion, optimizer):
    net.train()
    for images, boxes, labels in loader:
        confidence, locations = net(images)
        regression_loss, classification_loss = criterion(confidence, locations, labels, boxes)
        loss = regression_loss + classification_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    n = 24
    xy = rng.random((n, 2)) * 0.5
    annotations = pd.DataFrame({
        "ImageID": [f"img{i // 2:03d}" for i in range(n)],
        "ClassName": rng.choice(["Cat", "Dog", "Car"], n),
        "XMin": xy[:, 0], "YMin": xy[:, 1], "XMax": xy[:, 0] + 0.3, "YMax": xy[:, 1] + 0.3,
    })
    priors = torch.rand(8, 4)
    dataset = OpenImagesDataset(annotations, ["Cat", "Dog", "Car"], transform=MatchPrior(priors))
    loader = DataLoader(dataset, batch_size=4, shuffle=True)
    net = TinySSD(num_classes=len(dataset.class_names), num_priors=8)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    print("loss", train(loader, net, MultiboxLoss(len(dataset.class_names)), optimizer))
