"""The MONAI 3D nodule-detection evaluation of ch03 with the ground-truth boxes of the JSON datalist made float32 where they become tensors (torch.tensor(item["box"], dtype=torch.float32)), so box_iou(gt, pred) keeps its IoUs in floating point and the detections that overlap the nodules are matched; box_iou itself is unchanged
source: https://github.com/Project-MONAI/MONAI/issues/8369
reported-error: (none; the fixed situation of ch03)
outcome: ok
root-cause: -
expect: none
"""
import json
import os
import tempfile

import numpy as np
import torch

rng = np.random.default_rng(0)
torch.manual_seed(0)

# ---- monai/data/box_utils.py (the parts box_iou uses) -----------------------------------------------------------
COMPUTE_DTYPE = torch.float32
TO_REMOVE = 0.0  # MONAI's boxes are [xmin, ymin, zmin, xmax, ymax, zmax] with no +1


def get_spatial_dims(boxes):
    return int(boxes.shape[1]) // 2


def convert_data_type(data, output_type=torch.Tensor):
    """monai.utils.convert_data_type, reduced: ndarray -> tensor keeping its dtype; tensors pass through."""
    if isinstance(data, np.ndarray):
        return torch.as_tensor(data), type(data), None
    return data, type(data), None


def convert_to_dst_type(src, dst):
    if isinstance(dst, np.ndarray):
        return src.cpu().numpy(), type(dst), None
    return src, type(dst), None


def is_valid_box_values(boxes):
    spatial_dims = get_spatial_dims(boxes)
    for axis in range(0, spatial_dims):
        if (boxes[:, spatial_dims + axis] < boxes[:, axis]).sum() > 0:
            return False
    return True


def box_area(boxes):
    if not is_valid_box_values(boxes):
        raise ValueError("Given boxes has invalid values. The box size must be non-negative.")
    spatial_dims = get_spatial_dims(boxes)
    area = boxes[:, spatial_dims] - boxes[:, 0] + TO_REMOVE
    for axis in range(1, spatial_dims):
        area = area * (boxes[:, axis + spatial_dims] - boxes[:, axis] + TO_REMOVE)
    area_t, *_ = convert_data_type(area, torch.Tensor)
    if area_t.isnan().any() or area_t.isinf().any():
        raise ValueError("Box area is NaN or Inf.")
    return area


def _box_inter_union(boxes1_t, boxes2_t, compute_dtype=torch.float32):
    spatial_dims = get_spatial_dims(boxes1_t)
    area1 = box_area(boxes=boxes1_t.to(dtype=compute_dtype))
    area2 = box_area(boxes=boxes2_t.to(dtype=compute_dtype))
    lt = torch.max(boxes1_t[:, None, :spatial_dims], boxes2_t[:, :spatial_dims]).to(dtype=compute_dtype)
    rb = torch.min(boxes1_t[:, None, spatial_dims:], boxes2_t[:, spatial_dims:]).to(dtype=compute_dtype)
    wh = (rb - lt + TO_REMOVE).clamp(min=0)
    inter = torch.prod(wh, dim=-1, keepdim=False)
    union = area1[:, None] + area2 - inter
    return inter, union


def box_iou(boxes1, boxes2):
    """IoU, with size of (N,M) and same data type as ``boxes1``."""
    boxes1_t, *_ = convert_data_type(boxes1, torch.Tensor)
    boxes2_t, *_ = convert_data_type(boxes2, torch.Tensor)
    box_dtype = boxes1_t.dtype
    inter, union = _box_inter_union(boxes1_t, boxes2_t, compute_dtype=COMPUTE_DTYPE)
    iou_t = inter / (union + torch.finfo(COMPUTE_DTYPE).eps)
    iou_t = iou_t.to(dtype=box_dtype)
    if torch.isnan(iou_t).any() or torch.isinf(iou_t).any():
        raise ValueError("Box IoU is NaN or Inf.")
    iou, *_ = convert_to_dst_type(src=iou_t, dst=boxes1)
    return iou


# ---- a MONAI-style detection datalist: integer voxel boxes exported by the annotation tool ---------------------
def write_datalist(path, n_images=6):
    items = []
    for i in range(n_images):
        boxes = []
        for _ in range(int(rng.integers(1, 4))):
            lo = rng.integers(10, 80, 3)
            size = rng.integers(6, 16, 3)
            boxes.append([int(v) for v in np.concatenate([lo, lo + size])])
        items.append({"image": f"images/case_{i:03d}.nii.gz", "box": boxes, "label": [0] * len(boxes)})
    with open(path, "w") as f:
        json.dump({"validation": items}, f)


def load_decathlon_style(path, key="validation"):
    with open(path) as f:
        items = json.load(f)[key]
    data = []
    for item in items:
        data.append({"image": item["image"],
                     "box": torch.tensor(item["box"], dtype=torch.float32),
                     "label": torch.tensor(item["label"], dtype=torch.long)})
    return data


def detector(item):
    """Stand-in for the trained RetinaNetDetector's inference: float32 boxes close to each nodule + false positives."""
    gt = item["box"].to(torch.float32)
    tp = gt + torch.randn(gt.shape)
    tp = torch.cat([torch.minimum(tp[:, :3], tp[:, 3:]), torch.maximum(tp[:, :3], tp[:, 3:])], dim=1)
    fp_lo = torch.rand(2, 3) * 80
    fp = torch.cat([fp_lo, fp_lo + 8], dim=1)
    boxes = torch.cat([tp, fp])
    scores = torch.cat([torch.rand(len(tp)) * 0.3 + 0.7, torch.rand(2) * 0.5])
    return {"box": boxes, "label_scores": scores}


def evaluate(data, iou_thresh=0.1, score_thresh=0.5):
    n_gt = n_pred = n_tp_gt = n_tp_pred = 0
    max_ious = []
    for item in data:
        pred = detector(item)
        keep = pred["label_scores"] > score_thresh
        pred_boxes = pred["box"][keep]
        ious = box_iou(item["box"], pred_boxes)  # (n_gt, n_pred)
        max_ious.append(ious.max().item())
        n_gt += ious.shape[0]
        n_pred += ious.shape[1]
        n_tp_gt += int((ious >= iou_thresh).any(dim=1).sum())
        n_tp_pred += int((ious >= iou_thresh).any(dim=0).sum())
    print(f"IoU dtype {ious.dtype}, largest gt/pred IoU per case: {max_ious}")
    print(f"recall@{iou_thresh}: {n_tp_gt / n_gt:.3f} ({n_tp_gt}/{n_gt}), "
          f"precision@{iou_thresh}: {n_tp_pred / max(n_pred, 1):.3f} ({n_tp_pred}/{n_pred})")
    assert n_tp_gt == n_gt


with tempfile.TemporaryDirectory() as tmp:
    datalist = os.path.join(tmp, "dataset_fold0.json")
    write_datalist(datalist)
    evaluate(load_decathlon_style(datalist))
