"""Offline evaluation of instance-segmentation masks with ultralytics' metrics (mask_iou and the validator's match_predictions, re-typed): the ground-truth and predicted masks are read back as uint8 arrays, the usual mask format, and torch.matmul of two uint8 mask matrices returns uint8, so every intersection above 255 pixels wraps around; a prediction identical to its ground truth scores an IoU far below 1 and most true positives are missed at IoU 0.5:0.95, silently
source: https://github.com/ultralytics/ultralytics/issues/15782
reported-error: "If mask1 and mask2 have dtype of uint8 (which is rather standard for masks IMO), the output of the torch.matmul line is also uint8, meaning if your intersection of the masks is > 255, you end up with an integer overflow" (PR #15783: "Masks get cast to float32", torch.matmul(mask1.to(torch.float32), mask2.to(torch.float32).T))
outcome: ok (silent: mask_iou, called at line 71, multiplies two uint8 mask matrices at line 18 and the intersection wraps modulo 256; the run prints "area of gt 0: 613 px; IoU(gt 0, identical prediction 0) = 0.0898" and a true-positive rate of 0.000 at IoU 0.50 and over 0.50:0.95, where the cast masks give 1.0000, 1.000 and 0.792)
root-cause: line 18
expect: DG004
"""
import numpy as np
import torch

rng = np.random.default_rng(0)
H = W = 96
IOUV = torch.linspace(0.5, 0.95, 10)  # mAP@0.5:0.95 thresholds, as in the validator


def mask_iou(mask1, mask2, eps=1e-7):
    """ultralytics.utils.metrics.mask_iou: mask1 (N, n), mask2 (M, n) -> (N, M) IoU."""
    intersection = torch.matmul(mask1, mask2.T).clamp_(0)  # root-cause
    union = (mask1.sum(1)[:, None] + mask2.sum(1)[None]) - intersection  # (area1 + area2) - intersection
    return intersection / (union + eps)


def match_predictions(pred_classes, true_classes, iou):
    """BaseValidator.match_predictions: greedy one-to-one matching at each IoU threshold."""
    correct = np.zeros((pred_classes.shape[0], IOUV.shape[0])).astype(bool)
    correct_class = true_classes[:, None] == pred_classes
    iou = iou * correct_class
    iou = iou.cpu().numpy()
    for i, threshold in enumerate(IOUV.tolist()):
        matches = np.nonzero(iou >= threshold)
        matches = np.array(matches).T
        if matches.shape[0]:
            if matches.shape[0] > 1:
                matches = matches[iou[matches[:, 0], matches[:, 1]].argsort()[::-1]]
                matches = matches[np.unique(matches[:, 1], return_index=True)[1]]
                matches = matches[np.unique(matches[:, 0], return_index=True)[1]]
            correct[matches[:, 1].astype(int), i] = True
    return torch.tensor(correct, dtype=torch.bool)


def ellipse_mask(cy, cx, ry, rx):
    yy, xx = np.mgrid[:H, :W]
    return ((((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2) <= 1).astype(np.uint8)


def load_masks(arrays):
    """Masks as saved/read by the annotation tool: one uint8 {0, 1} array per instance."""
    return torch.from_numpy(np.stack(arrays))  # root-cause-alt


# a small validation set: per image 2-4 objects (radii 10-24 px, areas 300-1800 px), predictions jittered by a pixel or
# two, the first prediction of the first image an exact copy of its ground truth
images = []
for img_idx in range(8):
    n = int(rng.integers(2, 5))
    gts, preds, classes = [], [], []
    for k in range(n):
        cy, cx = rng.integers(25, 71, size=2)
        ry, rx = rng.integers(10, 25, size=2)
        gts.append(ellipse_mask(cy, cx, ry, rx))
        dy, dx = (0, 0) if (img_idx, k) == (0, 0) else tuple(rng.integers(-2, 3, size=2))
        preds.append(ellipse_mask(cy + dy, cx + dx, ry, rx))
        classes.append(int(rng.integers(0, 3)))
    images.append((gts, preds, classes))

stats = []
for img_idx, (gts, preds, classes) in enumerate(images):
    gt_masks = load_masks(gts)
    pred_masks = load_masks(preds)
    cls = torch.tensor(classes)
    iou = mask_iou(gt_masks.view(gt_masks.shape[0], -1), pred_masks.view(pred_masks.shape[0], -1))
    if img_idx == 0:
        print("area of gt 0: %d px; IoU(gt 0, identical prediction 0) = %.4f" % (int(gt_masks[0].sum()), iou[0, 0].item()))
    stats.append(match_predictions(cls, cls, iou))

correct = torch.cat(stats, 0)
print("mask mAP proxy: TP rate at IoU 0.50 = %.3f, mean over 0.50:0.95 = %.3f"
      % (correct[:, 0].float().mean().item(), correct.float().mean().item()))
