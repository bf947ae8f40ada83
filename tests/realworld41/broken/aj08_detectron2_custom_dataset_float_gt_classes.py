"""Fine-tuning a Fast R-CNN style ROI head on a custom box dataset with detectron2's data structures (Instances, Boxes, pairwise_iou, Matcher, ROIHeads.label_and_sample_proposals / _sample_proposals, FastRCNNOutputs) fed by the user's own Dataset, detectron2 issue #250 "data type error running pretrained network": the user's __getitem__ builds Instances((H, W)) with gt_classes = torch.FloatTensor(class_labels); images with boxes give float gt_classes, an image without boxes gets torch.zeros_like(matched_idxs) + num_classes (int64), FastRCNNOutputs concatenates them (float after promotion) and the class-index target of cross_entropy is float
source: https://github.com/facebookresearch/detectron2/issues/250
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for sequence element 2 in sequence argument at position #1 'tensors' (at self.gt_classes = cat([p.gt_classes for p in proposals], dim=0) in fast_rcnn.py; the custom __getitem__ sets object_instances.gt_classes = torch.FloatTensor(class_labels))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 145
root-cause: line 307
expect: DG006
"""
import io
import itertools

import numpy as np
import pandas as pd

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- detectron2/structures/boxes.py + instances.py (reduced)
class Boxes:
    def __init__(self, tensor):
        tensor = torch.as_tensor(tensor, dtype=torch.float32)
        self.tensor = tensor.reshape(-1, 4)

    def area(self):
        box = self.tensor
        return (box[:, 2] - box[:, 0]) * (box[:, 3] - box[:, 1])

    def __getitem__(self, item):
        return Boxes(self.tensor[item])

    def __len__(self):
        return self.tensor.shape[0]

    @staticmethod
    def cat(boxes_list):
        return Boxes(torch.cat([b.tensor for b in boxes_list], dim=0))


def pairwise_iou(boxes1, boxes2):
    area1, area2 = boxes1.area(), boxes2.area()
    boxes1, boxes2 = boxes1.tensor, boxes2.tensor
    width_height = torch.min(boxes1[:, None, 2:], boxes2[:, 2:]) - torch.max(boxes1[:, None, :2], boxes2[:, :2])
    width_height.clamp_(min=0)
    inter = width_height.prod(dim=2)
    return torch.where(inter > 0, inter / (area1[:, None] + area2 - inter), torch.zeros(1, dtype=inter.dtype))


class Instances:
    def __init__(self, image_size, **kwargs):
        self._image_size = image_size
        self._fields = {}
        for k, v in kwargs.items():
            self.set(k, v)

    @property
    def image_size(self):
        return self._image_size

    def __setattr__(self, name, val):
        if name.startswith("_"):
            super().__setattr__(name, val)
        else:
            self.set(name, val)

    def __getattr__(self, name):
        if name == "_fields" or name not in self._fields:
            raise AttributeError("Cannot find field '{}' in the given Instances!".format(name))
        return self._fields[name]

    def set(self, name, value):
        self._fields[name] = value

    def has(self, name):
        return name in self._fields

    def get_fields(self):
        return self._fields

    def __getitem__(self, item):
        ret = Instances(self._image_size)
        for k, v in self._fields.items():
            ret.set(k, v[item])
        return ret

    def __len__(self):
        for v in self._fields.values():
            return len(v)
        return 0


def cat(tensors, dim=0):
    if len(tensors) == 1:
        return tensors[0]
    return torch.cat(tensors, dim)


# ---- detectron2/modeling/matcher.py + sampling.py
class Matcher:
    def __init__(self, thresholds, labels, allow_low_quality_matches=False):
        thresholds = thresholds[:]
        thresholds.insert(0, -float("inf"))
        thresholds.append(float("inf"))
        self.thresholds = thresholds
        self.labels = labels
        self.allow_low_quality_matches = allow_low_quality_matches

    def __call__(self, match_quality_matrix):
        if match_quality_matrix.numel() == 0:
            default_matches = match_quality_matrix.new_full((match_quality_matrix.size(1),), 0, dtype=torch.int64)
            default_match_labels = match_quality_matrix.new_full((match_quality_matrix.size(1),), self.labels[0],
                                                                  dtype=torch.int8)
            return default_matches, default_match_labels
        matched_vals, matches = match_quality_matrix.max(dim=0)
        match_labels = matches.new_full(matches.size(), 1, dtype=torch.int8)
        for (l, low, high) in zip(self.labels, self.thresholds[:-1], self.thresholds[1:]):
            low_high = (matched_vals >= low) & (matched_vals < high)
            match_labels[low_high] = l
        return matches, match_labels


def subsample_labels(labels, num_samples, positive_fraction, bg_label):
    positive = torch.nonzero((labels != -1) & (labels != bg_label)).squeeze(1)
    negative = torch.nonzero(labels == bg_label).squeeze(1)
    num_pos = min(positive.numel(), int(num_samples * positive_fraction))
    num_neg = min(negative.numel(), num_samples - num_pos)
    perm1 = torch.randperm(positive.numel())[:num_pos]
    perm2 = torch.randperm(negative.numel())[:num_neg]
    return positive[perm1], negative[perm2]


# ---- detectron2/modeling/roi_heads/fast_rcnn.py (2019, reduced)
class FastRCNNOutputs(object):
    def __init__(self, pred_class_logits, pred_proposal_deltas, proposals, smooth_l1_beta=0.0):
        self.pred_class_logits = pred_class_logits
        self.pred_proposal_deltas = pred_proposal_deltas
        self.smooth_l1_beta = smooth_l1_beta
        self.proposals = Boxes.cat([p.proposal_boxes for p in proposals])
        if proposals[0].has("gt_boxes"):
            self.gt_boxes = Boxes.cat([p.gt_boxes for p in proposals])
            self.gt_classes = cat([p.gt_classes for p in proposals], dim=0)

    def softmax_cross_entropy_loss(self):
        return F.cross_entropy(self.pred_class_logits, self.gt_classes, reduction="mean")  # fails-here

    def smooth_l1_loss(self):
        src, tgt = self.proposals.tensor, self.gt_boxes.tensor
        wh = (src[:, 2:] - src[:, :2]).clamp(min=1.0)
        gt_proposal_deltas = torch.cat([((tgt[:, :2] + tgt[:, 2:]) - (src[:, :2] + src[:, 2:])) / (2 * wh),
                                        torch.log((tgt[:, 2:] - tgt[:, :2]).clamp(min=1.0) / wh)], dim=1)
        bg_class_ind = self.pred_class_logits.shape[1] - 1
        fg_inds = torch.nonzero((self.gt_classes >= 0) & (self.gt_classes < bg_class_ind)).squeeze(1)
        loss_box_reg = F.smooth_l1_loss(self.pred_proposal_deltas[fg_inds], gt_proposal_deltas[fg_inds],
                                        beta=self.smooth_l1_beta, reduction="sum")
        return loss_box_reg / self.gt_classes.numel()

    def losses(self):
        return {"loss_cls": self.softmax_cross_entropy_loss(), "loss_box_reg": self.smooth_l1_loss()}


class FastRCNNOutputLayers(nn.Module):
    def __init__(self, input_size, num_classes, box_dim=4):
        super().__init__()
        self.cls_score = nn.Linear(input_size, num_classes + 1)
        self.bbox_pred = nn.Linear(input_size, box_dim)

    def forward(self, x):
        x = x.flatten(start_dim=1)
        return self.cls_score(x), self.bbox_pred(x)


# ---- detectron2/modeling/roi_heads/roi_heads.py (ROIHeads sampling + a StandardROIHeads box branch)
class StandardROIHeads(nn.Module):
    def __init__(self, num_classes, in_channels, pooler_resolution=4, batch_size_per_image=32,
                 positive_sample_fraction=0.25, proposal_append_gt=True):
        super().__init__()
        self.num_classes = num_classes
        self.batch_size_per_image = batch_size_per_image
        self.positive_sample_fraction = positive_sample_fraction
        self.proposal_append_gt = proposal_append_gt
        self.proposal_matcher = Matcher([0.5], [0, 1], allow_low_quality_matches=False)
        self.pooler_resolution = pooler_resolution
        self.box_head = nn.Sequential(nn.Flatten(), nn.Linear(in_channels * pooler_resolution ** 2, 128), nn.ReLU(),
                                      nn.Linear(128, 128), nn.ReLU())
        self.box_predictor = FastRCNNOutputLayers(128, num_classes)

    def _sample_proposals(self, matched_idxs, matched_labels, gt_classes):
        has_gt = gt_classes.numel() > 0
        if has_gt:
            gt_classes = gt_classes[matched_idxs]
            gt_classes[matched_labels == 0] = self.num_classes
            gt_classes[matched_labels == -1] = -1
        else:
            gt_classes = torch.zeros_like(matched_idxs) + self.num_classes
        sampled_fg_idxs, sampled_bg_idxs = subsample_labels(gt_classes, self.batch_size_per_image,
                                                            self.positive_sample_fraction, self.num_classes)
        sampled_idxs = torch.cat([sampled_fg_idxs, sampled_bg_idxs], dim=0)
        return sampled_idxs, gt_classes[sampled_idxs]

    @torch.no_grad()
    def label_and_sample_proposals(self, proposals, targets):
        gt_boxes = [x.gt_boxes for x in targets]
        if self.proposal_append_gt:
            for p, g in zip(proposals, gt_boxes):
                p.proposal_boxes = Boxes.cat([p.proposal_boxes, g])
        proposals_with_gt = []
        for proposals_per_image, targets_per_image in zip(proposals, targets):
            has_gt = len(targets_per_image) > 0
            match_quality_matrix = pairwise_iou(targets_per_image.gt_boxes, proposals_per_image.proposal_boxes)
            matched_idxs, matched_labels = self.proposal_matcher(match_quality_matrix)
            sampled_idxs, gt_classes = self._sample_proposals(matched_idxs, matched_labels,
                                                              targets_per_image.gt_classes)
            proposals_per_image = proposals_per_image[sampled_idxs]
            proposals_per_image.gt_classes = gt_classes
            if has_gt:
                sampled_targets = matched_idxs[sampled_idxs]
                proposals_per_image.gt_boxes = targets_per_image.gt_boxes[sampled_targets]
            else:
                proposals_per_image.gt_boxes = Boxes(torch.zeros((len(sampled_idxs), 4)))
            proposals_with_gt.append(proposals_per_image)
        return proposals_with_gt

    def roi_pool(self, features, proposals):
        pooled = []
        for feat, p in zip(features, proposals):
            stride = 4.0
            for box in p.proposal_boxes.tensor:
                x0, y0, x1, y1 = (box / stride).tolist()
                x0, y0 = int(max(0, np.floor(x0))), int(max(0, np.floor(y0)))
                x1, y1 = int(min(feat.shape[2], max(x0 + 1, np.ceil(x1)))), int(min(feat.shape[1], max(y0 + 1, np.ceil(y1))))
                pooled.append(F.adaptive_avg_pool2d(feat[:, y0:y1, x0:x1], self.pooler_resolution))
        return torch.stack(pooled)

    def forward(self, features, proposals, targets):
        proposals = self.label_and_sample_proposals(proposals, targets)
        box_features = self.box_head(self.roi_pool(features, proposals))
        pred_class_logits, pred_proposal_deltas = self.box_predictor(box_features)
        outputs = FastRCNNOutputs(pred_class_logits, pred_proposal_deltas, proposals)
        return outputs.losses()


class ProposalRCNN(nn.Module):
    """GeneralizedRCNN with PRECOMPUTED proposals (MODEL.LOAD_PROPOSALS): backbone + ROI heads."""

    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU())
        self.roi_heads = StandardROIHeads(num_classes, 32)
        self.register_buffer("pixel_mean", torch.tensor([103.53, 116.28, 123.675]).view(3, 1, 1))
        self.register_buffer("pixel_std", torch.tensor([57.375, 57.12, 58.395]).view(3, 1, 1))

    def forward(self, batched_inputs):
        images = torch.stack([(x["image"].float() - self.pixel_mean) / self.pixel_std for x in batched_inputs])
        features = self.backbone(images)
        proposals = [x["proposals"] for x in batched_inputs]
        gt_instances = [x["instances"] for x in batched_inputs]
        return self.roi_heads(features, proposals, gt_instances)


# ---- the user's dataset
ANNOTATIONS_CSV = """file_name,x1,y1,x2,y2,class_label
img_000,4,6,30,28,0
img_000,34,30,58,60,1
img_001,10,10,40,44,2
img_002,
img_003,8,20,36,52,1
img_003,40,4,60,26,0
img_004,12,12,50,50,2
img_005,2,30,28,62,0
img_006,
img_007,20,8,44,36,1
"""


class CustomDataset(Dataset):
    def __init__(self, annotations, image_size=64, seed=0):
        self.df = annotations
        self.names = list(dict.fromkeys(self.df["file_name"]))
        self.image_size = image_size
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.names)

    def _proposals(self, boxes):
        h = w = self.image_size
        rand = self.rng.uniform(0, w - 8, (24, 2))
        sizes = self.rng.uniform(8, 32, (24, 2))
        props = np.concatenate([rand, np.minimum(rand + sizes, w)], axis=1)
        if len(boxes):
            jitter = np.repeat(boxes, 4, axis=0) + self.rng.normal(0, 3, (4 * len(boxes), 4))
            props = np.concatenate([props, np.clip(jitter, 0, w)])
        return Instances((h, w), proposal_boxes=Boxes(torch.as_tensor(props, dtype=torch.float32)))

    def __getitem__(self, idx):
        name = self.names[idx]
        rows = self.df[(self.df["file_name"] == name) & self.df["x1"].notna()]
        boxes = rows[["x1", "y1", "x2", "y2"]].to_numpy(dtype=np.float32)
        class_labels = rows["class_label"].astype(int).tolist()
        image = self.rng.integers(0, 255, (3, self.image_size, self.image_size)).astype(np.uint8)
        for (x1, y1, x2, y2), c in zip(boxes.astype(int), class_labels):
            image[c, y1:y2, x1:x2] = 250

        object_instances = Instances((self.image_size, self.image_size))
        object_instances.gt_boxes = Boxes(torch.from_numpy(boxes))
        class_tensor = torch.FloatTensor(class_labels)  # root-cause
        object_instances.gt_classes = class_tensor
        return {"file_name": name, "image": torch.as_tensor(image), "instances": object_instances,
                "proposals": self._proposals(boxes)}


def trivial_batch_collator(batch):
    return batch


def do_train(model, data_loader, max_iter=6):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0025, momentum=0.9, weight_decay=1e-4)
    model.train()
    for iteration, data in zip(range(max_iter), itertools.cycle(data_loader)):
        loss_dict = model(data)
        losses = sum(loss_dict.values())
        optimizer.zero_grad()
        losses.backward()
        optimizer.step()
        print("iter: {}  total_loss: {:.3f}  {}".format(
            iteration, losses.item(), {k: round(v.item(), 3) for k, v in loss_dict.items()}))


if __name__ == "__main__":
    torch.manual_seed(0)
    annotations = pd.read_csv(io.StringIO(ANNOTATIONS_CSV))
    dataset = CustomDataset(annotations)
    data_loader = DataLoader(dataset, batch_size=4, shuffle=False, collate_fn=trivial_batch_collator)
    model = ProposalRCNN(num_classes=3)
    do_train(model, data_loader)
