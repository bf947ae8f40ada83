"""An MMPose RTMPose top-down run on a small custom 3-keypoint COCO-style dataset (re-typed: the COCO keypoint parsing, SimCCLabel gaussian encoding, a small backbone + SimCC head with RTMCCHead.loss, KLDiscretLoss, simcc_pck_accuracy/keypoint_pck_accuracy/_calc_distances/_distance_acc/get_simcc_maximum, mmengine BaseModel.train_step/parse_losses): when a batch has no visible keypoint, keypoint_pck_accuracy returns the Python int 0, RTMCCHead turns it into an int64 acc_pose tensor, and parse_losses takes its .mean()
source: https://github.com/open-mmlab/mmpose/issues/2138
reported-error: RuntimeError: mean(): input dtype should be either floating point or complex dtypes. Got Long instead. (RTMPose-m, SimCCLabel, RTMCCHead with out_channels=3 on a custom dataset, after several epochs logging acc_pose: 0.000000; fixed upstream in PR #2479: avg_acc = valid_acc.mean() if cnt > 0 else 0.0)
outcome: RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long at line 237
root-cause: line 117
expect: DG005
"""
import json
import os
import tempfile
from collections import OrderedDict
from itertools import product

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- mmpose/codecs/simcc_label.py (gaussian smoothing) ----------------------------------------------------------
class SimCCLabel:
    def __init__(self, input_size, smoothing_type="gaussian", sigma=6.0, simcc_split_ratio=2.0, normalize=True):
        self.input_size = input_size
        self.smoothing_type = smoothing_type
        self.simcc_split_ratio = simcc_split_ratio
        self.normalize = normalize
        if isinstance(sigma, (float, int)):
            self.sigma = np.array([sigma, sigma])
        else:
            self.sigma = np.array(sigma)

    def encode(self, keypoints, keypoints_visible=None):
        if keypoints_visible is None:
            keypoints_visible = np.ones(keypoints.shape[:2], dtype=np.float32)
        x_labels, y_labels, keypoint_weights = self._generate_gaussian(keypoints, keypoints_visible)
        return dict(keypoint_x_labels=x_labels, keypoint_y_labels=y_labels, keypoint_weights=keypoint_weights)

    def _map_coordinates(self, keypoints, keypoints_visible=None):
        keypoints_split = keypoints.copy()
        keypoints_split = np.around(keypoints_split * self.simcc_split_ratio)
        keypoints_split = keypoints_split.astype(np.int64)
        keypoint_weights = keypoints_visible.copy()
        return keypoints_split, keypoint_weights

    def _generate_gaussian(self, keypoints, keypoints_visible=None):
        N, K, _ = keypoints.shape
        w, h = self.input_size
        W = np.around(w * self.simcc_split_ratio).astype(int)
        H = np.around(h * self.simcc_split_ratio).astype(int)
        keypoints_split, keypoint_weights = self._map_coordinates(keypoints, keypoints_visible)
        target_x = np.zeros((N, K, W), dtype=np.float32)
        target_y = np.zeros((N, K, H), dtype=np.float32)
        radius = self.sigma * 3
        x = np.arange(0, W, 1, dtype=np.float32)
        y = np.arange(0, H, 1, dtype=np.float32)
        for n, k in product(range(N), range(K)):
            if keypoints_visible[n, k] < 0.5:
                continue
            mu = keypoints_split[n, k]
            left, top = mu - radius
            right, bottom = mu + radius + 1
            if left >= W or top >= H or right < 0 or bottom < 0:
                keypoint_weights[n, k] = 0
                continue
            mu_x, mu_y = mu
            target_x[n, k] = np.exp(-((x - mu_x) ** 2) / (2 * self.sigma[0] ** 2))
            target_y[n, k] = np.exp(-((y - mu_y) ** 2) / (2 * self.sigma[1] ** 2))
        if self.normalize:
            norm_value = self.sigma * np.sqrt(np.pi * 2)
            target_x /= norm_value[0]
            target_y /= norm_value[1]
        return target_x, target_y, keypoint_weights


# ---- mmpose/codecs/utils/post_processing.py, mmpose/evaluation/functional/keypoint_eval.py ---------------------
def get_simcc_maximum(simcc_x, simcc_y):
    N, K, Wx = simcc_x.shape
    simcc_x = simcc_x.reshape(N * K, -1)
    simcc_y = simcc_y.reshape(N * K, -1)
    x_locs = np.argmax(simcc_x, axis=1)
    y_locs = np.argmax(simcc_y, axis=1)
    locs = np.stack((x_locs, y_locs), axis=-1).astype(np.float32)
    max_val_x = np.amax(simcc_x, axis=1)
    max_val_y = np.amax(simcc_y, axis=1)
    mask = max_val_x > max_val_y
    max_val_x[mask] = max_val_y[mask]
    vals = max_val_x
    locs[vals <= 0.] = -1
    return locs.reshape(N, K, 2), vals.reshape(N, K)


def _calc_distances(preds, gts, mask, norm_factor):
    N, K, _ = preds.shape
    _mask = mask.copy()
    _mask[np.where((norm_factor == 0).sum(1))[0], :] = False
    distances = np.full((N, K), -1, dtype=np.float32)
    norm_factor[np.where(norm_factor <= 0)] = 1e6
    distances[_mask] = np.linalg.norm(((preds - gts) / norm_factor[:, None, :])[_mask], axis=-1)
    return distances.T


def _distance_acc(distances, thr=0.5):
    distance_valid = distances != -1
    num_distance_valid = distance_valid.sum()
    if num_distance_valid > 0:
        return (distances[distance_valid] < thr).sum() / num_distance_valid
    return -1


def keypoint_pck_accuracy(pred, gt, mask, thr, norm_factor):
    distances = _calc_distances(pred, gt, mask, norm_factor)
    acc = np.array([_distance_acc(d, thr) for d in distances])
    valid_acc = acc[acc >= 0]
    cnt = len(valid_acc)
    avg_acc = valid_acc.mean() if cnt > 0 else 0  # root-cause
    return acc, avg_acc, cnt


def simcc_pck_accuracy(output, target, simcc_split_ratio, mask, thr=0.05, normalize=None):
    pred_x, pred_y = output
    gt_x, gt_y = target
    N, _, Wx = pred_x.shape
    _, _, Wy = pred_y.shape
    W, H = int(Wx / simcc_split_ratio), int(Wy / simcc_split_ratio)
    if normalize is None:
        normalize = np.tile(np.array([[H, W]]), (N, 1))
    pred_coords, _ = get_simcc_maximum(pred_x, pred_y)
    pred_coords /= simcc_split_ratio
    gt_coords, _ = get_simcc_maximum(gt_x, gt_y)
    gt_coords /= simcc_split_ratio
    return keypoint_pck_accuracy(pred_coords, gt_coords, mask, thr, normalize)


def to_numpy(x):
    if isinstance(x, (tuple, list)):
        return type(x)(to_numpy(t) for t in x)
    return x.detach().cpu().numpy()


# ---- mmpose/models/losses/classification_loss.py KLDiscretLoss -------------------------------------------------
class KLDiscretLoss(nn.Module):
    def __init__(self, beta=1.0, label_softmax=False, use_target_weight=True):
        super().__init__()
        self.beta = beta
        self.label_softmax = label_softmax
        self.use_target_weight = use_target_weight
        self.log_softmax = nn.LogSoftmax(dim=1)
        self.kl_loss = nn.KLDivLoss(reduction="none")

    def criterion(self, dec_outs, labels):
        log_pt = self.log_softmax(dec_outs * self.beta)
        if self.label_softmax:
            labels = torch.softmax(labels * self.beta, dim=1)
        return torch.mean(self.kl_loss(log_pt, labels), dim=1)

    def forward(self, pred_simcc, gt_simcc, target_weight):
        num_joints = pred_simcc[0].size(1)
        loss = 0
        weight = target_weight.reshape(-1) if self.use_target_weight else 1.
        for pred, target in zip(pred_simcc, gt_simcc):
            pred = pred.reshape(-1, pred.size(-1))
            target = target.reshape(-1, target.size(-1))
            loss += self.criterion(pred, target).mul(weight).sum()
        return loss / num_joints


# ---- a small backbone + SimCC head (RTMCCHead without the GAU block), TopdownPoseEstimator --------------------
class RTMCCHead(nn.Module):
    def __init__(self, in_channels, out_channels, input_size, in_featuremap_size, simcc_split_ratio=2.0):
        super().__init__()
        self.out_channels = out_channels
        self.simcc_split_ratio = simcc_split_ratio
        self.final_layer = nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1)
        flatten_dims = in_featuremap_size[0] * in_featuremap_size[1]
        self.mlp = nn.Sequential(nn.LayerNorm(flatten_dims), nn.Linear(flatten_dims, 64, bias=False))
        self.cls_x = nn.Linear(64, int(input_size[0] * simcc_split_ratio), bias=False)
        self.cls_y = nn.Linear(64, int(input_size[1] * simcc_split_ratio), bias=False)
        self.loss_module = KLDiscretLoss(beta=10., label_softmax=True, use_target_weight=True)

    def forward(self, feats):
        feats = feats[-1]
        feats = self.final_layer(feats)
        feats = torch.flatten(feats, 2)
        feats = self.mlp(feats)
        return self.cls_x(feats), self.cls_y(feats)

    def loss(self, feats, batch_data_samples, train_cfg={}):
        pred_x, pred_y = self.forward(feats)
        gt_x = torch.cat([d["keypoint_x_labels"] for d in batch_data_samples], dim=0)
        gt_y = torch.cat([d["keypoint_y_labels"] for d in batch_data_samples], dim=0)
        keypoint_weights = torch.cat([d["keypoint_weights"] for d in batch_data_samples], dim=0)
        pred_simcc = (pred_x, pred_y)
        gt_simcc = (gt_x, gt_y)
        losses = dict()
        loss = self.loss_module(pred_simcc, gt_simcc, keypoint_weights)
        losses.update(loss_kpt=loss)
        _, avg_acc, _ = simcc_pck_accuracy(
            output=to_numpy(pred_simcc),
            target=to_numpy(gt_simcc),
            simcc_split_ratio=self.simcc_split_ratio,
            mask=to_numpy(keypoint_weights) > 0,
        )
        acc_pose = torch.tensor(avg_acc, device=gt_x.device)  # root-cause-alt
        losses.update(acc_pose=acc_pose)
        return losses


class TopdownPoseEstimator(nn.Module):
    def __init__(self, num_keypoints, input_size):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.SiLU(),
            nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.SiLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.SiLU(),
            nn.Conv2d(64, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.SiLU(),
            nn.Conv2d(64, 96, 3, 2, 1), nn.BatchNorm2d(96), nn.SiLU())
        self.head = RTMCCHead(96, num_keypoints, input_size, (input_size[0] // 32, input_size[1] // 32))

    def loss(self, inputs, data_samples):
        return self.head.loss((self.backbone(inputs),), data_samples)

    # ---- mmengine BaseModel.train_step / parse_losses ----
    def train_step(self, data, optim_wrapper):
        losses = self.loss(*data)
        parsed_losses, log_vars = self.parse_losses(losses)
        optim_wrapper.zero_grad()
        parsed_losses.backward()
        optim_wrapper.step()
        return log_vars

    def parse_losses(self, losses):
        log_vars = []
        for loss_name, loss_value in losses.items():
            if isinstance(loss_value, torch.Tensor):
                log_vars.append([loss_name, loss_value.mean()])  # fails-here
            else:
                raise TypeError(f"{loss_name} is not a tensor or list of tensors")
        loss = sum(value for key, value in log_vars if "loss" in key)
        log_vars.insert(0, ["loss", loss])
        return loss, OrderedDict(log_vars)


# ---- a custom 3-keypoint COCO-style dataset (CVAT export): some crops have no visible keypoint -----------------
INPUT_SIZE = (192, 256)  # (w, h)


def write_coco_json(path, n_images=24):
    images, annotations = [], []
    for i in range(n_images):
        images.append({"id": i, "file_name": f"{i:06d}.jpg", "width": 192, "height": 256})
        kpts = []
        hidden = i in (8, 9, 10, 11)  # four consecutive crops where the part is fully occluded
        for _ in range(3):
            x, y = float(rng.uniform(20, 170)), float(rng.uniform(20, 235))
            v = 0 if hidden else int(rng.choice([1, 2]))
            kpts += [round(x, 2), round(y, 2), v] if v else [0, 0, 0]
        annotations.append({"id": i, "image_id": i, "category_id": 1, "bbox": [0, 0, 192, 256],
                            "keypoints": kpts, "num_keypoints": sum(1 for v in kpts[2::3] if v)})
    with open(path, "w") as f:
        json.dump({"images": images, "annotations": annotations,
                   "categories": [{"id": 1, "name": "part", "keypoints": ["a", "b", "c"]}]}, f)


def load_data_list(ann_file, codec):
    with open(ann_file) as f:
        coco = json.load(f)
    data = []
    for ann in coco["annotations"]:
        _keypoints = np.array(ann["keypoints"], dtype=np.float32).reshape(1, -1, 3)
        keypoints = _keypoints[..., :2]
        keypoints_visible = np.minimum(1, _keypoints[..., 2])
        encoded = codec.encode(keypoints, keypoints_visible)  # GenerateTarget
        img = rng.random((3, INPUT_SIZE[1], INPUT_SIZE[0]), dtype=np.float32)  # PackPoseInputs + preprocessor
        data.append((torch.from_numpy(img), {k: torch.from_numpy(v) for k, v in encoded.items()}))
    return data


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ann_file = os.path.join(tmp, "person_keypoints_train.json")
        write_coco_json(ann_file)
        codec = SimCCLabel(input_size=INPUT_SIZE, sigma=(4.9, 5.66), simcc_split_ratio=2.0, normalize=False)
        data = load_data_list(ann_file, codec)
    model = TopdownPoseEstimator(num_keypoints=3, input_size=INPUT_SIZE)
    optim = torch.optim.AdamW(model.parameters(), lr=4e-3, weight_decay=0.05)
    batch_size = 4
    for epoch in range(2):
        for it, i in enumerate(range(0, len(data), batch_size)):
            batch = data[i:i + batch_size]
            inputs = torch.stack([b[0] for b in batch])
            log_vars = model.train_step((inputs, [b[1] for b in batch]), optim)
            print(f"Epoch(train) [{epoch + 1}][{it + 1}/{len(data) // batch_size}]  "
                  f"loss: {log_vars['loss'].item():.6f}  acc_pose: {log_vars['acc_pose'].item():.6f}")


main()
