"""An MMSegmentation 0.x-style Fast-SCNN run on grayscale input (re-typed: the PIPELINES registry and Compose, LoadImageFromFile/LoadAnnotations/Resize/RandomFlip/Normalize/RGB2Gray/Pad/DefaultFormatBundle/Collect, EncoderDecoder.extract_feat, a narrow Fast-SCNN with in_channels=1): the reporter set the backbone to one input channel and added RGB2Gray(out_channels=1) after Normalize; RGB2Gray multiplies the float32 image by np.array(weights), a float64 array, so the image reaches the backbone as a DoubleTensor
source: https://github.com/open-mmlab/mmsegmentation/issues/2330
reported-error: "I modified the number of input channels of the backbone and added rgb2gray to the data processing ... RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same" (maintainer: "your data input type should be torch.cuda.FloatTensor rather than torch.cuda.DoubleTensor ... try to set img = img.float()")
outcome: RuntimeError: expected scalar type Double but found Float at line 222
root-cause: line 113
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
np.random.seed(0)

PIPELINES = {}


def register(cls):
    PIPELINES[cls.__name__] = cls
    return cls


@register
class LoadImageFromFile:
    def __init__(self, to_float32=False):
        self.to_float32 = to_float32

    def __call__(self, results):
        img = np.load(os.path.join(results["img_prefix"], results["img_info"]["filename"]))  # uint8 BGR
        if self.to_float32:
            img = img.astype(np.float32)
        results["img"] = img
        results["img_shape"] = img.shape
        return results


@register
class LoadAnnotations:
    def __call__(self, results):
        results["gt_semantic_seg"] = np.load(os.path.join(results["seg_prefix"], results["ann_info"]["seg_map"]))
        results["seg_fields"] = ["gt_semantic_seg"]
        return results


def imresize_nearest(img, size):
    w, h = size
    rows = np.arange(h) * img.shape[0] // h
    cols = np.arange(w) * img.shape[1] // w
    return img[rows][:, cols]


@register
class Resize:
    def __init__(self, img_scale, keep_ratio=False):
        self.img_scale = img_scale

    def __call__(self, results):
        results["img"] = imresize_nearest(results["img"], self.img_scale)
        for key in results.get("seg_fields", []):
            results[key] = imresize_nearest(results[key], self.img_scale)
        results["img_shape"] = results["img"].shape
        return results


@register
class RandomFlip:
    def __init__(self, prob=0.5):
        self.prob = prob

    def __call__(self, results):
        if np.random.rand() < self.prob:
            results["img"] = results["img"][:, ::-1].copy()
            for key in results.get("seg_fields", []):
                results[key] = results[key][:, ::-1].copy()
        return results


@register
class Normalize:
    def __init__(self, mean, std, to_rgb=True):
        self.mean = np.array(mean, dtype=np.float32)
        self.std = np.array(std, dtype=np.float32)
        self.to_rgb = to_rgb

    def __call__(self, results):
        img = results["img"].copy().astype(np.float32)  # mmcv.imnormalize
        if self.to_rgb:
            img = img[..., ::-1]
        results["img"] = (img - self.mean) / self.std
        results["img_norm_cfg"] = dict(mean=self.mean, std=self.std, to_rgb=self.to_rgb)
        return results


@register
class RGB2Gray:
    """Convert RGB image to grayscale image (weighted mean of the channels)."""

    def __init__(self, out_channels=None, weights=(0.299, 0.587, 0.114)):
        assert out_channels is None or out_channels > 0
        self.out_channels = out_channels
        assert isinstance(weights, tuple)
        self.weights = weights

    def __call__(self, results):
        img = results["img"]
        assert len(img.shape) == 3
        assert img.shape[2] == len(self.weights)
        weights = np.array(self.weights).reshape((1, 1, -1))  # root-cause
        img = (img * weights).sum(2, keepdims=True)
        if self.out_channels is None:
            img = img.repeat(weights.shape[2], axis=2)
        else:
            img = img.repeat(self.out_channels, axis=2)
        results["img"] = img
        results["img_shape"] = img.shape
        return results


@register
class Pad:
    def __init__(self, size_divisor=None, pad_val=0, seg_pad_val=255):
        self.size_divisor = size_divisor
        self.pad_val = pad_val
        self.seg_pad_val = seg_pad_val

    def __call__(self, results):
        h, w = results["img"].shape[:2]
        ph = -h % self.size_divisor
        pw = -w % self.size_divisor
        results["img"] = np.pad(results["img"], ((0, ph), (0, pw), (0, 0)), constant_values=self.pad_val)
        for key in results.get("seg_fields", []):
            results[key] = np.pad(results[key], ((0, ph), (0, pw)), constant_values=self.seg_pad_val)
        return results


def to_tensor(data):
    if isinstance(data, torch.Tensor):
        return data
    if isinstance(data, np.ndarray):
        return torch.from_numpy(data)
    return torch.tensor(data)


@register
class DefaultFormatBundle:
    def __call__(self, results):
        img = results["img"]
        if len(img.shape) < 3:
            img = np.expand_dims(img, -1)
        img = np.ascontiguousarray(img.transpose(2, 0, 1))
        results["img"] = to_tensor(img)
        results["gt_semantic_seg"] = to_tensor(results["gt_semantic_seg"][None, ...].astype(np.int64))
        return results


@register
class Collect:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, results):
        return {k: results[k] for k in self.keys}


class Compose:
    def __init__(self, transforms):
        self.transforms = []
        for cfg in transforms:
            cfg = dict(cfg)
            self.transforms.append(PIPELINES[cfg.pop("type")](**cfg))

    def __call__(self, data):
        for t in self.transforms:
            data = t(data)
        return data


# ---- the reporter's config (fast_scnn_lr0.12_8x4_160k_cityscapes, modified for grayscale) ----
img_norm_cfg = dict(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375], to_rgb=True)
train_pipeline = [
    dict(type="LoadImageFromFile"),
    dict(type="LoadAnnotations"),
    dict(type="Resize", img_scale=(64, 48)),
    dict(type="RandomFlip", prob=0.5),
    dict(type="Normalize", **img_norm_cfg),
    dict(type="RGB2Gray", out_channels=1),
    dict(type="Pad", size_divisor=32, pad_val=0, seg_pad_val=255),
    dict(type="DefaultFormatBundle"),
    dict(type="Collect", keys=["img", "gt_semantic_seg"]),
]
model_cfg = dict(backbone=dict(in_channels=1, downsample_dw_channels=(16, 24), global_out_channels=32), num_classes=4)


class CustomDataset(Dataset):
    def __init__(self, img_dir, ann_dir, pipeline):
        self.img_dir, self.ann_dir = img_dir, ann_dir
        self.img_infos = [dict(filename=f, ann=dict(seg_map=f)) for f in sorted(os.listdir(img_dir))]
        self.pipeline = Compose(pipeline)

    def __len__(self):
        return len(self.img_infos)

    def __getitem__(self, idx):
        info = self.img_infos[idx]
        results = dict(img_info=info, ann_info=info["ann"], img_prefix=self.img_dir, seg_prefix=self.ann_dir)
        return self.pipeline(results)


class ConvModule(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, groups=1):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)
        self.activate = nn.ReLU(inplace=True)

    def forward(self, x):
        x = self.conv(x)  # fails-here
        return self.activate(self.bn(x))


class FastSCNN(nn.Module):
    """Learning-to-downsample + a global feature extractor + feature fusion, narrowed."""

    def __init__(self, in_channels=3, downsample_dw_channels=(32, 48), global_out_channels=128):
        super().__init__()
        c1, c2 = downsample_dw_channels
        self.learning_to_downsample = nn.Sequential(
            ConvModule(in_channels, c1, 3, stride=2, padding=1),
            ConvModule(c1, c1, 3, stride=2, padding=1, groups=c1), ConvModule(c1, c2, 1),
            ConvModule(c2, c2, 3, stride=2, padding=1, groups=c2), ConvModule(c2, c2, 1),
        )
        self.global_feature_extractor = nn.Sequential(
            ConvModule(c2, global_out_channels, 3, stride=2, padding=1),
            ConvModule(global_out_channels, global_out_channels, 3, padding=1),
        )
        self.fuse_low = ConvModule(c2, global_out_channels, 1)

    def forward(self, x):
        higher = self.learning_to_downsample(x)
        lower = self.global_feature_extractor(higher)
        lower = F.interpolate(lower, size=higher.shape[2:], mode="bilinear", align_corners=False)
        return [higher, lower + self.fuse_low(higher)]


class EncoderDecoder(nn.Module):
    def __init__(self, backbone, num_classes):
        super().__init__()
        self.backbone = FastSCNN(**backbone)
        self.decode_head = nn.Sequential(ConvModule(backbone["global_out_channels"], 32, 3, padding=1),
                                         nn.Conv2d(32, num_classes, 1))

    def extract_feat(self, img):
        x = self.backbone(img)  # root-cause-alt
        return x

    def forward_train(self, img, gt_semantic_seg):
        x = self.extract_feat(img)
        seg_logits = self.decode_head(x[-1])
        seg_logits = F.interpolate(seg_logits, size=gt_semantic_seg.shape[2:], mode="bilinear", align_corners=False)
        loss = F.cross_entropy(seg_logits, gt_semantic_seg.squeeze(1), ignore_index=255)
        return dict(loss_seg=loss)


def write_cityscapes_like(root, n=8, h=56, w=72):
    img_dir, ann_dir = os.path.join(root, "leftImg8bit"), os.path.join(root, "gtFine")
    os.makedirs(img_dir)
    os.makedirs(ann_dir)
    for i in range(n):
        np.save(os.path.join(img_dir, f"{i:04d}.npy"), np.random.randint(0, 256, (h, w, 3), dtype=np.uint8))
        seg = np.random.randint(0, 4, (h, w)).astype(np.uint8)
        np.save(os.path.join(ann_dir, f"{i:04d}.npy"), seg)
    return img_dir, ann_dir


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as root:
        img_dir, ann_dir = write_cityscapes_like(root)
        dataset = CustomDataset(img_dir, ann_dir, train_pipeline)
        loader = DataLoader(dataset, batch_size=4, shuffle=True)
        model = EncoderDecoder(**model_cfg)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.12, momentum=0.9, weight_decay=4e-5)
        model.train()
        for it, data_batch in enumerate(loader):
            losses = model.forward_train(data_batch["img"], data_batch["gt_semantic_seg"])
            optimizer.zero_grad()
            losses["loss_seg"].backward()
            optimizer.step()
            print(f"iter {it}: loss_seg {losses['loss_seg'].item():.4f}")
