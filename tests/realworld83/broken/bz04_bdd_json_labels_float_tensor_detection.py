"""An autonomous-object-detection-style BDD100K baseline (re-typed: datasets/bdd.py reading the BDD label JSON with json.load, get_ground_truths turning each image's box2d list and category ids into Tensor(bboxes) and Tensor(labels), the BDD Dataset building torchvision-style targets, and a small Faster R-CNN-like detector whose forward checks its targets as torchvision's does): torch.Tensor(list of ints) makes the class labels float32, and the detector refuses them before computing a loss
source: https://github.com/prajjwal1/autonomous-object-detection/issues/7
reported-error: "assert t[\"labels\"].dtype == torch.int64, 'target labels must of int64 type' is the part giving this error" (AssertionError from torchvision's detection forward while training on BDD; maintainer: "the data type of tensors inside target list is not of type torch.int64. This can be fixed by type casting the tensors to torch.int64")
outcome: AssertionError: target labels must of int64 type at line 99
root-cause: line 56
expect: DG006
"""
import json
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor
from torch.utils.data import DataLoader

torch.manual_seed(0)
rng = np.random.default_rng(0)
CLASSES = {"bus": 0, "traffic light": 1, "traffic sign": 2, "person": 3, "bike": 4, "truck": 5,
           "motor": 6, "car": 7, "train": 8, "rider": 9, "drivable area": 10, "lane": 11}


def write_bdd_split(root, n_images=16, size=64):
    """Images cached as .npy and the BDD label file: [{"name", "labels": [{"category", "box2d"}]}]."""
    anno, paths = [], []
    for i in range(n_images):
        img = rng.uniform(0, 0.2, (3, size, size)).astype(np.float32)
        labels = []
        for _ in range(rng.integers(1, 4)):
            x1, y1 = (int(v) for v in rng.integers(0, size - 24, 2))
            w, h = (int(v) for v in rng.integers(8, 24, 2))
            category = ["car", "person", "traffic sign"][int(rng.integers(0, 3))]
            img[CLASSES[category] % 3, y1:y1 + h, x1:x1 + w] += 0.8
            labels.append({"category": category, "box2d": {"x1": x1, "y1": y1, "x2": x1 + w, "y2": y1 + h}})
        path = os.path.join(root, f"img_{i:04d}.npy")
        np.save(path, img)
        paths.append(path)
        anno.append({"name": os.path.basename(path), "labels": labels})
    with open(os.path.join(root, "bdd100k_labels_images_train.json"), "w") as f:
        json.dump(anno, f)
    return paths


def get_ground_truths(train_img_path_list, anno_data):
    bboxes, total_bboxes = [], []
    labels, total_labels = [], []
    for i in range(len(train_img_path_list)):
        for j in range(len(anno_data[i]["labels"])):
            if "box2d" in anno_data[i]["labels"][j]:
                box = anno_data[i]["labels"][j]["box2d"]
                bboxes.append([box["x1"], box["y1"], box["x2"], box["y2"]])
                labels.append(CLASSES[anno_data[i]["labels"][j]["category"]])
        total_bboxes.append(Tensor(bboxes))
        total_labels.append(Tensor(labels))  # root-cause
        bboxes, labels = [], []
    return total_bboxes, total_labels


class BDD(torch.utils.data.Dataset):
    def __init__(self, img_path, anno_json_path):
        self.img_path = img_path
        with open(anno_json_path) as f:
            self.anno_data = json.load(f)
        self.total_bboxes_list, self.total_labels_list = get_ground_truths(self.img_path, self.anno_data)

    def __len__(self):
        return len(self.img_path)

    def __getitem__(self, idx):
        img = torch.from_numpy(np.load(self.img_path[idx]))
        bboxes, labels = self.total_bboxes_list[idx], self.total_labels_list[idx]
        area = (bboxes[:, 3] - bboxes[:, 1]) * (bboxes[:, 2] - bboxes[:, 0])
        target = {"boxes": bboxes, "labels": labels, "image_id": Tensor([idx]), "area": area,
                  "iscrowd": torch.zeros(len(bboxes), dtype=torch.int64)}
        return img, target


class TinyFasterRCNN(nn.Module):
    """Backbone, proposals jittered around the ground truth, per-RoI mean pooling, box predictor."""

    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.cls_score = nn.Linear(16, num_classes + 1)
        self.bbox_pred = nn.Linear(16, 4)

    def roi_pool(self, feats, boxes):
        pooled = []
        for x1, y1, x2, y2 in boxes.round().long().tolist():
            pooled.append(feats[:, y1:max(y2, y1 + 1), x1:max(x2, x1 + 1)].mean(dim=(1, 2)))
        return torch.stack(pooled)

    def forward(self, images, targets):
        for t in targets:
            floating_point_types = (torch.float, torch.double, torch.half)
            assert t["boxes"].dtype in floating_point_types, "target boxes must of float type"
            assert t["labels"].dtype == torch.int64, "target labels must of int64 type"  # fails-here
        losses = {"loss_classifier": 0.0, "loss_box_reg": 0.0}
        for img, t in zip(images, targets):
            feats = self.backbone(img)
            proposals = (t["boxes"] + torch.randn_like(t["boxes"]) * 2).clamp(0, img.shape[-1] - 1)
            roi = self.roi_pool(feats, proposals)
            class_logits, box_regression = self.cls_score(roi), self.bbox_pred(roi)
            losses["loss_classifier"] = losses["loss_classifier"] + F.cross_entropy(class_logits, t["labels"] + 1)
            losses["loss_box_reg"] = losses["loss_box_reg"] + F.smooth_l1_loss(box_regression, (t["boxes"] - proposals) / 10)
        return losses


def collate_fn(batch):
    return tuple(zip(*batch))


with tempfile.TemporaryDirectory() as root:
    img_paths = write_bdd_split(root)
    dataset = BDD(img_paths, os.path.join(root, "bdd100k_labels_images_train.json"))
    dl = DataLoader(dataset, batch_size=4, shuffle=True, collate_fn=collate_fn)
    model = TinyFasterRCNN(num_classes=len(CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    for epoch in range(3):  # engine.train_one_epoch
        for images, targets in dl:
            loss_dict = model(images, targets)
            losses = sum(loss for loss in loss_dict.values())
            optimizer.zero_grad()
            losses.backward()
            optimizer.step()
        print(f"epoch {epoch}: " + ", ".join(f"{k} {v.item():.4f}" for k, v in loss_dict.items()))
