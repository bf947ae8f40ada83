"""Two-stage detector's RoI head: sample_rois() builds the per-RoI class labels with the legacy torch.IntTensor constructor, and the fast-rcnn loss in another function passes them to F.cross_entropy
source: https://github.com/pytorch/pytorch/issues/1842
reported-error: TypeError: CudaClassNLLCriterion_updateOutput received an invalid combination of arguments - got (..., torch.cuda.IntTensor, ...), but expected (... torch.cuda.LongTensor target ...)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 42
root-cause: line 28
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 5


def box_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area = lambda x: (x[:, 2:] - x[:, :2]).prod(-1)  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None, :] - inter)


def sample_rois(proposals, gt_boxes, gt_labels, fg_thresh=0.5):
    iou = box_iou(proposals, gt_boxes)
    max_iou, argmax = iou.max(1)
    labels = [int(gt_labels[j]) if m >= fg_thresh else 0 for m, j in zip(max_iou.tolist(), argmax.tolist())]
    return proposals, torch.IntTensor(labels)  # root-cause


class RoIHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(4, 64), nn.ReLU())
        self.cls_score = nn.Linear(64, N_CLASSES)

    def forward(self, rois):
        return self.cls_score(self.fc(rois / 100.0))


def rcnn_build_loss(score, label):
    cross_entropy = F.cross_entropy(score, label)  # fails-here
    return cross_entropy


rng = np.random.default_rng(0)
xy = torch.from_numpy(rng.uniform(0, 80, size=(64, 2))).float()
proposals = torch.cat([xy, xy + 20], dim=1)
gt_boxes = torch.tensor([[10.0, 10.0, 30.0, 30.0], [50.0, 40.0, 70.0, 65.0]])
gt_labels = torch.tensor([2, 4])

head = RoIHead()
opt = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
rois, label = sample_rois(proposals, gt_boxes, gt_labels)
loss = rcnn_build_loss(head(rois), label)
opt.zero_grad()
loss.backward()
opt.step()
print("rcnn loss", loss.item())
