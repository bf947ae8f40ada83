"""RF-DETR-style detection serving with roboflow inference_models' preprocessing as changed by PR #2477 (route NumPy preprocessing through the GPU tensor path): a uint8 HWC frame from the server adapter is turned into a tensor with torch.from_numpy(...).permute(2, 0, 1) and handed to the float-tensor branch, whose resize keeps uint8 and whose normalize step (torchvision's F.normalize, re-typed) only accepts floating tensors, so every stretch-mode NumPy request fails while float CHW tensor callers still work
source: https://github.com/roboflow/inference/pull/2477
reported-error: review: "For any uint8 numpy (or uint8 torch) input with STRETCH_TO, this hands a torch.uint8 tensor to _pre_process_tensor, and TF.normalize raises TypeError: Input tensor should be a float tensor. Got torch.uint8 ... The fix is to restore .to(torch.float32).div_(255.0) here ... A cast without the /255 would silently feed 0-255 values into normalization."
outcome: TypeError: Input tensor should be a float tensor. Got torch.uint8. at line 43
root-cause: line 96
expect: DG004
"""
from enum import Enum
from typing import List, NamedTuple, Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)


class ResizeMode(Enum):
    STRETCH_TO = "Stretch to"
    LETTERBOX = "Fit (black edges) in"


class NetworkInput(NamedTuple):
    width: int
    height: int
    resize_mode: ResizeMode
    color_mode: str
    normalization: Optional[tuple]


class PreProcessingMetadata(NamedTuple):
    original_size: tuple
    inference_size: tuple
    scale_width: float
    scale_height: float


def normalize(tensor: torch.Tensor, mean: List[float], std: List[float]) -> torch.Tensor:
    """torchvision.transforms.functional.normalize for tensors (its dtype check included)."""
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")  # fails-here
    mean_t = torch.as_tensor(mean, dtype=tensor.dtype, device=tensor.device).view(-1, 1, 1)
    std_t = torch.as_tensor(std, dtype=tensor.dtype, device=tensor.device).view(-1, 1, 1)
    return tensor.sub(mean_t).div(std_t)


def _apply_normalization(tensor, network_input):
    if network_input.normalization:
        mean, std = network_input.normalization
        tensor = normalize(tensor, mean=mean, std=std)
    return tensor


def _ensure_hwc_uint8(image: np.ndarray) -> np.ndarray:
    if image.dtype == np.uint8:
        return image
    if np.issubdtype(image.dtype, np.floating):
        return (image * 255.0).clip(0, 255).astype(np.uint8)
    return image.astype(np.uint8)


def _pre_process_tensor(image, network_input, input_color_mode):
    """Float-tensor branch: assumes float CHW (or NCHW with N=1) in [0, 1]."""
    if image.ndim == 3:
        image = image.unsqueeze(0)
    original_size = (image.shape[3], image.shape[2])
    if input_color_mode != network_input.color_mode:
        image = image[:, [2, 1, 0], :, :]
    resized = F.interpolate(image, size=(network_input.height, network_input.width), mode="bilinear",
                            antialias=True, align_corners=False)
    resized = resized.squeeze(0)
    tensor = _apply_normalization(resized, network_input)
    meta = PreProcessingMetadata(original_size, (network_input.width, network_input.height),
                                 network_input.width / original_size[0], network_input.height / original_size[1])
    return tensor, meta


def _pre_process_numpy_letterbox(np_img, network_input, input_color_mode):
    if input_color_mode != network_input.color_mode:
        np_img = np_img[:, :, ::-1]
    chw = np.ascontiguousarray(np.transpose(np_img, (2, 0, 1))).astype(np.float32) / 255.0
    return _pre_process_tensor(torch.from_numpy(chw), network_input, network_input.color_mode)


def pre_process_network_input(images, network_input, target_device, input_color_format=None):
    image_list = list(images) if isinstance(images, list) else [images]
    tensors, metadata = [], []
    for img in image_list:
        if isinstance(img, torch.Tensor) and img.is_floating_point():
            tensor, meta = _pre_process_tensor(img, network_input, input_color_format)
        elif isinstance(img, np.ndarray):
            np_img = _ensure_hwc_uint8(img)
            if network_input.resize_mode == ResizeMode.STRETCH_TO:
                gpu_img = torch.from_numpy(np.ascontiguousarray(np_img)).to(target_device).permute(2, 0, 1)  # root-cause
                tensor, meta = _pre_process_tensor(gpu_img, network_input, input_color_format)
            else:
                tensor, meta = _pre_process_numpy_letterbox(np_img, network_input, input_color_format)
        else:
            raise TypeError(f"Unsupported image input type for RFDETR pre-processing: {type(img)}")
        tensors.append(tensor.to(device=target_device))
        metadata.append(meta)
    return torch.stack(tensors).contiguous(), metadata


class TinyDETR(nn.Module):
    """Stand-in for the RF-DETR network: conv backbone, learned queries, class and box heads."""

    def __init__(self, num_classes=3, num_queries=10, dim=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 4, stride=4), nn.GELU(), nn.Conv2d(dim, dim, 2, stride=2))
        self.queries = nn.Parameter(torch.randn(num_queries, dim))
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.class_head = nn.Linear(dim, num_classes + 1)
        self.box_head = nn.Linear(dim, 4)

    def forward(self, x):
        feats = self.backbone(x).flatten(2).transpose(1, 2)
        q = self.queries.unsqueeze(0).expand(x.shape[0], -1, -1)
        h, _ = self.attn(q, feats, feats)
        return self.class_head(h), self.box_head(h).sigmoid()


class RFDetrForObjectDetectionTorch:
    def __init__(self, model, network_input, device=torch.device("cpu")):
        self.model, self.network_input, self.device = model.eval(), network_input, device

    def infer(self, images, input_color_format="bgr", confidence=0.1):
        batch, metas = pre_process_network_input(images, self.network_input, self.device, input_color_format)
        with torch.no_grad():
            logits, boxes = self.model(batch)
        results = []
        for lg, bx, meta in zip(logits, boxes, metas):
            scores, labels = lg.softmax(-1)[:, :-1].max(-1)
            keep = scores > confidence
            w, h = meta.original_size
            results.append((bx[keep] * torch.tensor([w, h, w, h]), labels[keep], scores[keep]))
        return results


network_input = NetworkInput(width=64, height=64, resize_mode=ResizeMode.STRETCH_TO, color_mode="rgb",
                             normalization=([0.485, 0.456, 0.406], [0.229, 0.224, 0.225]))
detector = RFDetrForObjectDetectionTorch(TinyDETR(), network_input)

# an "advanced caller" passing a float CHW tensor in [0, 1]: the tensor branch works
float_frame = torch.rand(3, 96, 128)
print("tensor input:", [r[0].shape[0] for r in detector.infer(float_frame, input_color_format="rgb")], "boxes")

# what the server adapters send: uint8 HWC BGR frames from cv2.imdecode
frames = [rng.integers(0, 256, (96, 128, 3), dtype=np.uint8) for _ in range(2)]
results = detector.infer(frames, input_color_format="bgr")
print("numpy input:", [r[0].shape[0] for r in results], "boxes")
