"""A PyTorchVideo Kinetics training run (re-typed: Kinetics/LabeledVideoDataset decoding each video with EncodedVideoPyAV, whose get_clip stacks the frames and returns them as float32 in [0, 255], and the factory transform create_video_transform(mode="train", video_key="video", ...) applied to every clip): the factory's default convert_to_float=True puts ConvertUint8ToFloat in the chain, and it refuses the already-float clip of the first sample
source: https://github.com/facebookresearch/pytorchvideo/issues/123
reported-error: "The function create_video_transform contains ConvertUint8ToFloat transform default, but if we use Kinetics class to load directory videos, the loaded videos is float32 data type already, then when the video is processed by ConvertUint8ToFloat, it will raise the error of image must have dtype torch.uint8"
outcome: AssertionError: image must have dtype torch.uint8 at line 127
root-cause: line 201
expect: DG004
"""
import math
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, IterableDataset

torch.manual_seed(0)
random.seed(0)
rng = np.random.default_rng(0)

# ---- the "directory of videos": name -> (decoded THWC uint8 frames at 30 fps, class name) -------------------
CLASSES = ["abseiling", "juggling balls", "playing drums"]
VIDEOS = {}
for i in range(12):
    label = i % 3
    t = np.arange(60)[:, None, None, None]
    frames = rng.integers(0, 80, (60, 40, 48, 3)) + 50 * label + (t * (label + 1)) % 60
    VIDEOS["kinetics/train/%s/%03d.mp4" % (CLASSES[label], i)] = (np.clip(frames, 0, 255).astype(np.uint8), label)


# ---- pytorchvideo.data (EncodedVideoPyAV, RandomClipSampler, LabeledVideoDataset, Kinetics) ------------------
def thwc_to_cthw(data):
    return data.permute(3, 0, 1, 2)


class EncodedVideoPyAV:
    fps = 30

    def __init__(self, file, video_name):
        self._frames = file
        self._video_name = video_name
        self.duration = len(file) / self.fps

    def get_clip(self, start_sec, end_sec):
        a, b = int(start_sec * self.fps), int(math.ceil(end_sec * self.fps))
        video_frames = [torch.from_numpy(f) for f in self._frames[a:b]]
        frames = thwc_to_cthw(torch.stack(video_frames)).to(torch.float32)  # root-cause-alt
        return {"video": frames, "audio": None}


class RandomClipSampler:
    def __init__(self, clip_duration):
        self._clip_duration = clip_duration

    def __call__(self, video_duration):
        start = random.uniform(0, max(video_duration - self._clip_duration, 0))
        return start, start + self._clip_duration


class LabeledVideoDataset(IterableDataset):
    def __init__(self, labeled_video_paths, clip_sampler, transform=None):
        self._labeled_videos = labeled_video_paths
        self._clip_sampler = clip_sampler
        self._transform = transform

    def __iter__(self):
        order = list(range(len(self._labeled_videos)))
        random.shuffle(order)
        for i in order:
            path, info = self._labeled_videos[i]
            video = EncodedVideoPyAV(VIDEOS[path][0], path)
            start, end = self._clip_sampler(video.duration)
            clip = video.get_clip(start, end)
            sample_dict = {"video": clip["video"], "video_name": path, "video_index": i, "audio": clip["audio"],
                           **info}
            if self._transform is not None:
                sample_dict = self._transform(sample_dict)
            yield sample_dict


def Kinetics(data_path, clip_sampler, transform=None):
    paths = [(p, {"label": lab}) for p, (_, lab) in sorted(VIDEOS.items()) if p.startswith(data_path)]
    return LabeledVideoDataset(paths, clip_sampler, transform=transform)


# ---- pytorchvideo.transforms ------------------------------------------------------------------------------
class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


class ApplyTransformToKey:
    def __init__(self, key, transform):
        self._key, self._transform = key, transform

    def __call__(self, x):
        x[self._key] = self._transform(x[self._key])
        return x


class RemoveKey:
    def __init__(self, key):
        self._key = key

    def __call__(self, x):
        x.pop(self._key, None)
        return x


class UniformTemporalSubsample:
    def __init__(self, num_samples):
        self._num_samples = num_samples

    def __call__(self, x):
        t = x.shape[1]
        idx = torch.clamp(torch.linspace(0, t - 1, self._num_samples), 0, t - 1).long()
        return torch.index_select(x, 1, idx)


class ConvertUint8ToFloat:
    def __call__(self, x):
        assert x.dtype == torch.uint8, "image must have dtype torch.uint8"  # fails-here
        return x.to(torch.float32) / 255.0


class Normalize:
    def __init__(self, mean, std):
        self.mean = torch.tensor(mean).view(-1, 1, 1, 1)
        self.std = torch.tensor(std).view(-1, 1, 1, 1)

    def __call__(self, x):
        return (x - self.mean) / self.std


class RandomShortSideScale:
    def __init__(self, min_size, max_size):
        self.min_size, self.max_size = min_size, max_size

    def __call__(self, x):
        size = random.randint(self.min_size, self.max_size)
        c, t, h, w = x.shape
        new_h, new_w = (size, int(math.floor(w / h * size))) if w >= h else (int(math.floor(h / w * size)), size)
        return F.interpolate(x, size=(new_h, new_w), mode="bilinear", align_corners=False)


class RandomCrop:
    def __init__(self, size):
        self.size = size

    def __call__(self, x):
        h, w = x.shape[-2:]
        top, left = random.randint(0, h - self.size), random.randint(0, w - self.size)
        return x[..., top:top + self.size, left:left + self.size]


class RandomHorizontalFlip:
    def __init__(self, p):
        self.p = p

    def __call__(self, x):
        return x.flip(-1) if random.random() < self.p else x


def create_video_transform(mode, video_key=None, remove_key=None, num_samples=8, convert_to_float=True,
                           video_mean=(0.45, 0.45, 0.45), video_std=(0.225, 0.225, 0.225), min_size=256,
                           max_size=320, crop_size=224, horizontal_flip_prob=0.5):
    assert mode == "train"
    transform = Compose(
        ([] if num_samples is None else [UniformTemporalSubsample(num_samples=num_samples)])
        + ([ConvertUint8ToFloat()] if convert_to_float else [])
        + [Normalize(mean=video_mean, std=video_std)]
        + [RandomShortSideScale(min_size=min_size, max_size=max_size), RandomCrop(size=crop_size)]
        + [RandomHorizontalFlip(p=horizontal_flip_prob)]
    )
    if video_key is None:
        return transform
    return Compose([ApplyTransformToKey(key=video_key, transform=transform)]
                   + ([] if remove_key is None else [RemoveKey(k) for k in remove_key]))


# ---- the user's training script: a small slow-only 3D ResNet on Kinetics clips ------------------------------
class SlowOnly(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv3d(3, 16, (1, 5, 5), (1, 2, 2), (0, 2, 2), bias=False), nn.BatchNorm3d(16),
                                  nn.ReLU(), nn.MaxPool3d((1, 3, 3), (1, 2, 2), (0, 1, 1)))
        self.res = nn.Sequential(nn.Conv3d(16, 32, (3, 3, 3), (1, 2, 2), (1, 1, 1), bias=False), nn.BatchNorm3d(32),
                                 nn.ReLU())
        self.head = nn.Linear(32, num_classes)

    def forward(self, x):
        return self.head(F.adaptive_avg_pool3d(self.res(self.stem(x)), 1).flatten(1))


def main():
    train_transform = create_video_transform(mode="train", video_key="video", remove_key=["audio"],  # root-cause
                                             num_samples=8, min_size=36, max_size=44, crop_size=32)
    train_data = Kinetics("kinetics/train", clip_sampler=RandomClipSampler(clip_duration=1.0),
                          transform=train_transform)
    train_loader = DataLoader(train_data, batch_size=4)
    model = SlowOnly(num_classes=len(CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(3):
        total, correct, loss_sum = 0, 0, 0.0
        for batch in train_loader:
            video, label = batch["video"], batch["label"]
            pred = model(video)
            loss = F.cross_entropy(pred, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            loss_sum += loss.item() * label.size(0)
            correct += (pred.argmax(-1) == label).sum().item()
            total += label.size(0)
        print(f"epoch {epoch}: loss {loss_sum / total:.4f} acc {correct / total:.3f}")


main()
