"""The MMTracking 0.x-style ByteTrack inference run of cb05 with the fix the maintainers adopted for YOLOX: the test pipeline gets a Normalize step with zero mean and unit std (mmcv.imnormalize casts to float32 and leaves the pixel scale alone, as YOLOX expects), so ImageToTensor wraps a float32 frame and the detector and tracker run; the uint8 frames, the uint8 resize and the pad value 114 are kept
source: https://github.com/open-mmlab/mmtracking/issues/390
reported-error: (none filed; the fixed situation of cb05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)

PIPELINES = {}


def register(cls):
    PIPELINES[cls.__name__] = cls
    return cls


@register
class LoadImageFromWebcam:
    def __call__(self, results):
        img = results["img"]  # an HxWx3 uint8 frame, as mmcv.VideoReader decodes it
        results["filename"] = None
        results["img_shape"] = img.shape
        results["ori_shape"] = img.shape
        return results


@register
class Resize:
    def __init__(self, img_scale, keep_ratio=True):
        self.img_scale = img_scale
        self.keep_ratio = keep_ratio

    def __call__(self, results):
        img = results["img"]
        h, w = img.shape[:2]
        scale = min(self.img_scale[0] / w, self.img_scale[1] / h) if self.keep_ratio else 1.0
        nh, nw = int(h * scale + 0.5), int(w * scale + 0.5)
        rows = np.arange(nh) * h // nh
        cols = np.arange(nw) * w // nw
        results["img"] = img[rows][:, cols]  # mmcv.imrescale keeps the uint8 dtype
        results["scale_factor"] = np.array([scale] * 4, dtype=np.float32)
        results["img_shape"] = results["img"].shape
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
class Pad:
    def __init__(self, size_divisor=32, pad_val=114.0):
        self.size_divisor = size_divisor
        self.pad_val = pad_val

    def __call__(self, results):
        img = results["img"]
        h, w = img.shape[:2]
        ph, pw = -h % self.size_divisor, -w % self.size_divisor
        results["img"] = np.pad(img, ((0, ph), (0, pw), (0, 0)), constant_values=self.pad_val)  # mmcv.impad
        results["pad_shape"] = results["img"].shape
        return results


@register
class ImageToTensor:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, results):
        for key in self.keys:
            img = results[key]
            if len(img.shape) < 3:
                img = np.expand_dims(img, -1)
            results[key] = torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1)))
        return results


@register
class VideoCollect:
    def __init__(self, keys):
        self.keys = keys

    def __call__(self, results):
        meta = {k: results[k] for k in ("ori_shape", "img_shape", "pad_shape", "scale_factor", "frame_id")}
        data = {k: results[k] for k in self.keys}
        data["img_metas"] = meta
        return data


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


# ---- bytetrack_yolox_x_crowdhuman_mot17-private-half.py (the parts used here) ----
img_scale = (160, 96)
test_pipeline = [
    dict(type="LoadImageFromWebcam"),
    dict(type="Resize", img_scale=img_scale, keep_ratio=True),
    dict(type="Normalize", mean=[0.0, 0.0, 0.0], std=[1.0, 1.0, 1.0], to_rgb=False),
    dict(type="Pad", size_divisor=32, pad_val=114.0),
    dict(type="ImageToTensor", keys=["img"]),
    dict(type="VideoCollect", keys=["img"]),
]


class ConvModule(nn.Module):
    def __init__(self, cin, cout, k, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout, eps=0.001, momentum=0.03)
        self.activate = nn.SiLU()

    def forward(self, x):
        return self.activate(self.bn(self.conv(x)))


class Focus(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = ConvModule(cin * 4, cout, 3)

    def forward(self, x):
        patch_top_left = x[..., ::2, ::2]
        patch_top_right = x[..., ::2, 1::2]
        patch_bot_left = x[..., 1::2, ::2]
        patch_bot_right = x[..., 1::2, 1::2]
        x = torch.cat((patch_top_left, patch_bot_left, patch_top_right, patch_bot_right), dim=1)
        return self.conv(x)


class YOLOX(nn.Module):
    """CSPDarknet stem + two stages + a decoupled head on one level, narrowed."""

    def __init__(self, num_classes=1):
        super().__init__()
        self.stem = Focus(3, 16)
        self.stages = nn.Sequential(ConvModule(16, 32, 3, stride=2), ConvModule(32, 64, 3, stride=2))
        self.cls_head = nn.Conv2d(64, num_classes, 1)
        self.reg_head = nn.Conv2d(64, 4, 1)
        self.obj_head = nn.Conv2d(64, 1, 1)
        self.stride = 8

    def simple_test(self, img, img_metas, rescale=True):
        feat = self.stages(self.stem(img))
        cls = self.cls_head(feat).sigmoid()
        obj = self.obj_head(feat).sigmoid()
        reg = self.reg_head(feat)
        b, _, h, w = feat.shape
        ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
        cx = (xs.flatten() + reg[0, 0].flatten()) * self.stride
        cy = (ys.flatten() + reg[0, 1].flatten()) * self.stride
        bw = reg[0, 2].flatten().exp() * self.stride
        bh = reg[0, 3].flatten().exp() * self.stride
        scores = (cls[0, 0] * obj[0, 0]).flatten()
        boxes = torch.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], dim=1)
        if rescale:
            boxes = boxes / torch.from_numpy(img_metas["scale_factor"])
        return torch.cat([boxes, scores[:, None]], dim=1)


def bbox_iou(a, b):
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None] - inter + 1e-6)


class ByteTracker:
    def __init__(self, obj_score_thrs=(0.6, 0.1), match_iou_thr=0.3):
        self.high, self.low = obj_score_thrs
        self.match_iou_thr = match_iou_thr
        self.tracks = {}
        self.num_tracks = 0

    def track(self, det_bboxes, frame_id):
        high = det_bboxes[det_bboxes[:, 4] > self.high]
        ids = torch.full((len(high),), -1, dtype=torch.long)
        if self.tracks and len(high):
            prev_ids = list(self.tracks)
            prev = torch.stack([self.tracks[i] for i in prev_ids])
            ious = bbox_iou(high[:, :4], prev)
            best, idx = ious.max(1)
            for k in range(len(high)):
                if best[k] > self.match_iou_thr:
                    ids[k] = prev_ids[int(idx[k])]
        for k in range(len(high)):
            if ids[k] < 0:
                ids[k] = self.num_tracks
                self.num_tracks += 1
            self.tracks[int(ids[k])] = high[k, :4]
        return high, ids


class ByteTrack(nn.Module):
    def __init__(self):
        super().__init__()
        self.detector = YOLOX(num_classes=1)
        self.tracker = ByteTracker()

    def simple_test(self, img, img_metas, rescale=True):
        frame_id = img_metas["frame_id"]
        det_bboxes = self.detector.simple_test(img, img_metas, rescale=rescale)
        track_bboxes, track_ids = self.tracker.track(det_bboxes, frame_id)
        return dict(det_bboxes=det_bboxes, track_bboxes=track_bboxes, track_ids=track_ids)


def inference_mot(model, img, frame_id):
    data = dict(img=img, img_info=dict(frame_id=frame_id), img_prefix=None, frame_id=frame_id)
    data = Compose(test_pipeline)(data)
    img = data["img"][None]  # collate + scatter on one device
    with torch.no_grad():
        return model.simple_test(img, data["img_metas"], rescale=True)


if __name__ == "__main__":
    model = ByteTrack().eval()
    video = [rng.integers(0, 256, size=(120, 200, 3), dtype=np.uint8) for _ in range(3)]  # mmcv.VideoReader frames
    for frame_id, frame in enumerate(video):
        result = inference_mot(model, frame, frame_id)
        print(f"frame {frame_id}: {len(result['track_ids'])} tracks")
