"""The MMPose DEKR bottom-up keypoint run of ch01 as PR #2486 fixes it: SPR._get_heatmap_weights builds the weights with np.ones(heatmaps.shape, dtype=np.float32) * bg_weight, so the pixel-wise weighted KeypointMSELoss, the displacement loss and their sum stay float32 like the model's output
source: https://github.com/open-mmlab/mmpose/pull/2486
reported-error: (none; the fixed situation of ch01)
outcome: ok
root-cause: -
expect: none
"""
from functools import partial

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- mmpose/codecs/utils: instance roots, diagonal lengths, gaussian and displacement maps ----------------------
def get_instance_root(keypoints, keypoints_visible=None, root_type="kpt_center"):
    roots_coordinate = np.zeros((keypoints.shape[0], 2), dtype=np.float32)
    roots_visible = np.ones((keypoints.shape[0]), dtype=np.float32) * 2
    for i in range(keypoints.shape[0]):
        visible_keypoints = keypoints[i][keypoints_visible[i] > 0]
        if visible_keypoints.size == 0:
            roots_visible[i] = 0
            continue
        roots_coordinate[i] = visible_keypoints.mean(axis=0)
        roots_visible[i] = 1
    return roots_coordinate, roots_visible


def get_diagonal_lengths(keypoints, keypoints_visible=None):
    bbox = np.zeros((keypoints.shape[0], 4), dtype=np.float32)
    for i in range(keypoints.shape[0]):
        visible_keypoints = keypoints[i][keypoints_visible[i] > 0]
        if visible_keypoints.size == 0:
            continue
        bbox[i, :2] = visible_keypoints.min(axis=0)
        bbox[i, 2:] = visible_keypoints.max(axis=0)
    pseudo_bbox = bbox.reshape(-1, 2, 2)
    h_w_diff = pseudo_bbox[:, 1] - pseudo_bbox[:, 0]
    return np.sqrt(np.power(h_w_diff, 2).sum(axis=1))


def generate_gaussian_heatmaps(heatmap_size, keypoints, keypoints_visible, sigma):
    N, K, _ = keypoints.shape
    W, H = heatmap_size
    heatmaps = np.zeros((K, H, W), dtype=np.float32)
    keypoint_weights = keypoints_visible.copy()
    if isinstance(sigma, (int, float)):
        sigma = (sigma,) * N
    for n in range(N):
        radius = sigma[n] * 3
        gaussian_size = 2 * radius + 1
        x = np.arange(0, gaussian_size, 1, dtype=np.float32)
        y = x[:, None]
        x0 = y0 = gaussian_size // 2
        for k in range(K):
            if keypoints_visible[n, k] < 0.5:
                continue
            mu = (keypoints[n, k] + 0.5).astype(np.int64)
            left, top = (mu - radius).astype(np.int64)
            right, bottom = (mu + radius + 1).astype(np.int64)
            if left >= W or top >= H or right < 0 or bottom < 0:
                keypoint_weights[n, k] = 0
                continue
            gaussian = np.exp(-((x - x0) ** 2 + (y - y0) ** 2) / (2 * sigma[n] ** 2))
            g_x1, g_x2 = max(0, -left), min(W, right) - left
            g_y1, g_y2 = max(0, -top), min(H, bottom) - top
            h_x1, h_x2 = max(0, left), min(W, right)
            h_y1, h_y2 = max(0, top), min(H, bottom)
            heatmap_region = heatmaps[k, h_y1:h_y2, h_x1:h_x2]
            np.maximum(heatmap_region, gaussian[g_y1:g_y2, g_x1:g_x2], out=heatmap_region)
    return heatmaps, keypoint_weights


def generate_displacement_heatmap(heatmap_size, keypoints, keypoints_visible, roots, roots_visible,
                                  diagonal_lengths, radius):
    N, K, _ = keypoints.shape
    W, H = heatmap_size
    displacements = np.zeros((K * 2, H, W), dtype=np.float32)
    displacement_weights = np.zeros((K * 2, H, W), dtype=np.float32)
    instance_size_map = np.zeros((H, W), dtype=np.float32)
    for n in range(N):
        if roots_visible[n] < 1 or roots[n, 0] < 0 or roots[n, 1] < 0 or roots[n, 0] >= W or roots[n, 1] >= H:
            continue
        diagonal_length = diagonal_lengths[n]
        for k in range(K):
            if (keypoints_visible[n, k] < 1 or keypoints[n, k, 0] < 0 or keypoints[n, k, 1] < 0
                    or keypoints[n, k, 0] >= W or keypoints[n, k, 1] >= H):
                continue
            start_x, start_y = max(int(roots[n, 0] - radius), 0), max(int(roots[n, 1] - radius), 0)
            end_x, end_y = min(int(roots[n, 0] + radius), W), min(int(roots[n, 1] + radius), H)
            for x in range(start_x, end_x):
                for y in range(start_y, end_y):
                    if displacements[2 * k, y, x] != 0 or displacements[2 * k + 1, y, x] != 0:
                        if diagonal_length > instance_size_map[y, x]:
                            continue
                    displacement_weights[2 * k:2 * k + 2, y, x] = 1 / diagonal_length
                    displacements[2 * k:2 * k + 2, y, x] = keypoints[n, k] - [x, y]
                    instance_size_map[y, x] = diagonal_length
    return displacements, displacement_weights


# ---- mmpose/codecs/spr.py ----------------------------------------------------------------------------------------
class SPR:
    def __init__(self, input_size, heatmap_size, sigma, generate_keypoint_heatmaps=False,
                 root_type="kpt_center", minimal_diagonal_length=5, background_weight=0.1):
        self.input_size = input_size
        self.heatmap_size = heatmap_size
        self.generate_keypoint_heatmaps = generate_keypoint_heatmaps
        self.root_type = root_type
        self.minimal_diagonal_length = minimal_diagonal_length
        self.background_weight = background_weight
        self.scale_factor = (np.array(input_size) / heatmap_size).astype(np.float32)
        self.sigma = sigma

    def _get_heatmap_weights(self, heatmaps, fg_weight=1, bg_weight=0):
        heatmap_weights = np.ones(heatmaps.shape, dtype=np.float32) * bg_weight
        heatmap_weights[heatmaps > 0] = fg_weight
        return heatmap_weights

    def encode(self, keypoints, keypoints_visible=None):
        if keypoints_visible is None:
            keypoints_visible = np.ones(keypoints.shape[:2], dtype=np.float32)
        _keypoints = keypoints / self.scale_factor
        roots, roots_visible = get_instance_root(_keypoints, keypoints_visible, self.root_type)
        diagonal_lengths = get_diagonal_lengths(_keypoints, keypoints_visible)
        roots_visible[diagonal_lengths < self.minimal_diagonal_length] = 0
        heatmaps, _ = generate_gaussian_heatmaps(self.heatmap_size, roots[:, None], roots_visible[:, None],
                                                 self.sigma[0])
        heatmap_weights = self._get_heatmap_weights(heatmaps, bg_weight=self.background_weight)
        if self.generate_keypoint_heatmaps:
            keypoint_heatmaps, _ = generate_gaussian_heatmaps(self.heatmap_size, _keypoints, keypoints_visible,
                                                              self.sigma[1])
            keypoint_heatmaps_weights = self._get_heatmap_weights(keypoint_heatmaps,
                                                                  bg_weight=self.background_weight)
            heatmaps = np.concatenate((keypoint_heatmaps, heatmaps), axis=0)
            heatmap_weights = np.concatenate((keypoint_heatmaps_weights, heatmap_weights), axis=0)
        displacements, displacement_weights = generate_displacement_heatmap(
            self.heatmap_size, _keypoints, keypoints_visible, roots, roots_visible, diagonal_lengths,
            self.sigma[0])
        return dict(heatmaps=heatmaps, heatmap_weights=heatmap_weights, displacements=displacements,
                    displacement_weights=displacement_weights)


# ---- a COCO-like bottom-up dataset (synthetic people) + GenerateTarget + PackPoseInputs --------------------------
NUM_KEYPOINTS = 17
INPUT_SIZE, HEATMAP_SIZE = (128, 128), (32, 32)


def load_coco_like_annotations(num_images):
    """Per image: 1-3 people, 17 (x, y) keypoints in input-image pixels (float32 as mmpose stores them), visibility."""
    samples = []
    for _ in range(num_images):
        n = int(rng.integers(1, 4))
        centers = rng.uniform(30, 98, (n, 1, 2))
        keypoints = (centers + rng.normal(0, 12, (n, NUM_KEYPOINTS, 2))).clip(0, 127).astype(np.float32)
        visible = (rng.random((n, NUM_KEYPOINTS)) > 0.2).astype(np.float32)
        img = rng.integers(0, 256, (INPUT_SIZE[1], INPUT_SIZE[0], 3)).astype(np.uint8)
        samples.append(dict(img=img, keypoints=keypoints, keypoints_visible=visible))
    return samples


class PixelData:
    """mmengine PixelData as PackPoseInputs fills it: set_field, then to_tensor() (torch.from_numpy per field)."""

    def set_field(self, value, name):
        setattr(self, name, value)

    def to_tensor(self):
        for k, v in list(vars(self).items()):
            if isinstance(v, np.ndarray):
                setattr(self, k, torch.from_numpy(v))
        return self


class PoseDataSample:
    gt_fields: PixelData


def pipeline(sample, codec, mean=np.array([123.675, 116.28, 103.53]), std=np.array([58.395, 57.12, 57.375])):
    encoded = codec.encode(sample["keypoints"], sample["keypoints_visible"])  # GenerateTarget
    gt_fields = PixelData()
    for key in ("heatmaps", "heatmap_weights", "displacements", "displacement_weights"):
        gt_fields.set_field(encoded[key], key)
    data_sample = PoseDataSample()
    data_sample.gt_fields = gt_fields.to_tensor()
    img = ((sample["img"] - mean) / std).astype(np.float32).transpose(2, 0, 1)  # PoseDataPreprocessor
    return torch.from_numpy(np.ascontiguousarray(img)), data_sample


# ---- losses: KeypointMSELoss, SoftWeightSmoothL1Loss -----------------------------------------------------------
class KeypointMSELoss(nn.Module):
    def __init__(self, use_target_weight=False, skip_empty_channel=False, loss_weight=1.0):
        super().__init__()
        self.use_target_weight = use_target_weight
        self.skip_empty_channel = skip_empty_channel
        self.loss_weight = loss_weight

    def forward(self, output, target, target_weights=None, mask=None):
        _mask = self._get_mask(target, target_weights, mask)
        if _mask is None:
            loss = F.mse_loss(output, target)
        else:
            _loss = F.mse_loss(output, target, reduction="none")
            loss = (_loss * _mask).mean()
        return loss * self.loss_weight

    def _get_mask(self, target, target_weights, mask):
        if target_weights is not None:
            assert target_weights.ndim in (2, 4) and target_weights.shape == target.shape[:target_weights.ndim]
            ndim_pad = target.ndim - target_weights.ndim
            _mask = target_weights.view(target_weights.shape + (1,) * ndim_pad)
            mask = _mask if mask is None else mask * _mask
        return mask


class SoftWeightSmoothL1Loss(nn.Module):
    def __init__(self, use_target_weight=False, supervise_empty=True, beta=1.0, loss_weight=1.0):
        super().__init__()
        reduction = "none" if use_target_weight else "mean"
        self.criterion = partial(self.smooth_l1_loss, reduction=reduction, beta=beta)
        self.supervise_empty = supervise_empty
        self.use_target_weight = use_target_weight
        self.loss_weight = loss_weight

    @staticmethod
    def smooth_l1_loss(input, target, reduction="none", beta=1.0):
        delta = input - target
        mask = delta.abs() < beta
        delta[mask] = (delta[mask]).pow(2) / (2 * beta)
        delta[~mask] = delta[~mask].abs() - beta / 2
        return delta if reduction == "none" else delta.mean()

    def forward(self, output, target, target_weight=None):
        for _ in range(output.ndim - target_weight.ndim):
            target_weight = target_weight.unsqueeze(-1)
        loss = self.criterion(output, target) * target_weight
        if self.supervise_empty:
            loss = loss.mean()
        else:
            num_elements = torch.nonzero(target_weight > 0).size()[0]
            loss = loss.sum() / max(num_elements, 1.0)
        return loss * self.loss_weight


# ---- a small backbone (stride 4, like HRNet's 1/4 output) and DEKRHead ------------------------------------------
class TinyBackbone(nn.Module):
    def __init__(self, out_channels=48):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
                                  nn.Conv2d(32, out_channels, 3, 2, 1), nn.BatchNorm2d(out_channels), nn.ReLU())

    def forward(self, x):
        return (self.stem(x),)


class DEKRHead(nn.Module):
    def __init__(self, in_channels, num_keypoints, heatmap_loss, displacement_loss):
        super().__init__()
        self.num_keypoints = num_keypoints
        self.heatmap_conv_layers = nn.Sequential(nn.Conv2d(in_channels, 32, 1), nn.BatchNorm2d(32), nn.ReLU(),
                                                 nn.Conv2d(32, num_keypoints + 1, 1))
        self.displacement_conv_layers = nn.Sequential(nn.Conv2d(in_channels, num_keypoints * 15, 1),
                                                      nn.BatchNorm2d(num_keypoints * 15), nn.ReLU(),
                                                      nn.Conv2d(num_keypoints * 15, num_keypoints * 2, 1,
                                                                groups=num_keypoints))
        self.loss_module = nn.ModuleDict(dict(heatmap=heatmap_loss, displacement=displacement_loss))

    def forward(self, feats):
        x = feats[-1]
        return self.heatmap_conv_layers(x), self.displacement_conv_layers(x)

    def loss(self, feats, batch_data_samples):
        pred_heatmaps, pred_displacements = self.forward(feats)
        gt_heatmaps = torch.stack([d.gt_fields.heatmaps for d in batch_data_samples])
        heatmap_weights = torch.stack([d.gt_fields.heatmap_weights for d in batch_data_samples])
        gt_displacements = torch.stack([d.gt_fields.displacements for d in batch_data_samples])
        displacement_weights = torch.stack([d.gt_fields.displacement_weights for d in batch_data_samples])
        losses = dict()
        heatmap_loss = self.loss_module["heatmap"](pred_heatmaps, gt_heatmaps, heatmap_weights, None)
        displacement_loss = self.loss_module["displacement"](pred_displacements, gt_displacements,
                                                             displacement_weights)
        losses.update({"loss/heatmap": heatmap_loss, "loss/displacement": displacement_loss})
        return losses


def main():
    codec = SPR(input_size=INPUT_SIZE, heatmap_size=HEATMAP_SIZE, sigma=(4, 2), minimal_diagonal_length=32 ** 0.5,
                generate_keypoint_heatmaps=True)
    data = [pipeline(s, codec) for s in load_coco_like_annotations(24)]
    backbone = TinyBackbone()
    head = DEKRHead(48, NUM_KEYPOINTS, KeypointMSELoss(use_target_weight=True),
                    SoftWeightSmoothL1Loss(use_target_weight=True, supervise_empty=False, beta=1 / 9,
                                           loss_weight=0.002))
    params = list(backbone.parameters()) + list(head.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    batch_size = 8
    for epoch in range(2):
        for i in range(0, len(data), batch_size):
            batch = data[i:i + batch_size]
            inputs = torch.stack([b[0] for b in batch])
            data_samples = [b[1] for b in batch]
            losses = head.loss(backbone(inputs), data_samples)
            loss = sum(losses.values())  # mmengine parse_losses
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss/heatmap {losses['loss/heatmap'].item():.6f} "
              f"dtype {losses['loss/heatmap'].dtype}, loss/displacement dtype {losses['loss/displacement'].dtype}, "
              f"loss dtype {loss.dtype}, output dtype {head(backbone(inputs))[0].dtype}")
        assert loss.dtype == torch.float32


main()
