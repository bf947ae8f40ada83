"""The multiple-attention (MAT) deepfake-video training run of ck01 with the issue's fix: DeepfakeDataset.__getitem__ returns (self.trans(image=image)['image']).float(), so the uint8 face frames that ToTensorV2 permutes to CHW reach the EfficientNet stem as float32; the cv2 frame reading, the albumentations CenterCrop/ToTensorV2 transform and the int64 real/fake labels are kept, and two epochs train and validate
source: https://github.com/yoctta/multiple-attention/issues/26
reported-error: (none; the fixed situation of ck01)
outcome: ok
root-cause: -
expect: none
"""
import os
import shutil
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(1234567)
np.random.seed(1234567)
ROOT = tempfile.mkdtemp(prefix="ffpp_")


# ---- stand-ins: cv2 frame files and albumentations (CenterCrop, Compose, ToTensorV2) ---------------------------
class cv2:
    COLOR_BGR2RGB = 4

    @staticmethod
    def imread(path):
        return np.load(path)  # HxWx3 uint8, as cv2.imread returns a decoded frame

    @staticmethod
    def cvtColor(image, code):
        return np.ascontiguousarray(image[..., ::-1])


class CenterCrop:
    def __init__(self, height, width):
        self.height, self.width = height, width

    def __call__(self, image):
        h, w = image.shape[:2]
        top, left = (h - self.height) // 2, (w - self.width) // 2
        return image[top:top + self.height, left:left + self.width]


class ToTensorV2:
    """albumentations.pytorch.ToTensorV2: HWC -> CHW torch tensor, dtype kept (no scaling, no normalisation)."""

    def __call__(self, image):
        return torch.from_numpy(image.transpose(2, 0, 1).copy())


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, image):
        for t in self.transforms:
            image = t(image)
        return {"image": image}


def augment0(image):
    if np.random.rand() < 0.5:
        image = np.ascontiguousarray(image[:, ::-1])
    return {"image": image}


augmentations = {"augment0": augment0}


def make_ffpp(n_videos=8, frames=12, size=40):
    """FaceForensics++-like folders of extracted face frames: label 0 (Origin) or 1 (Deepfakes)."""
    files = []
    for v in range(n_videos):
        label = v % 2
        d = os.path.join(ROOT, "Deepfakes" if label else "Origin", "c23", "larger_images", "%03d" % v)
        os.makedirs(d)
        base = np.random.randint(60, 200, (1, 1, 3))
        for f in range(frames):
            frame = base + np.random.randint(-30, 30, (size, size, 3)) + (25 * label if f % 2 else 0)
            np.save(os.path.join(d, "%04d.npy" % f), np.clip(frame, 0, 255).astype(np.uint8))
        files.append([d, label])
    return files


# ---- datasets/dataset.py ----------------------------------------------------------------------------------------
class DeepfakeDataset(Dataset):

    def __init__(self, phase='train', datalabel='', resize=(32, 32), imgs_per_video=4, min_frames=0,
                 normalize=dict(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5]), frame_interval=2, max_frames=12,
                 augment='augment0'):
        assert phase in ['train', 'val', 'test']
        self.datalabel = datalabel
        self.phase = phase
        self.imgs_per_video = imgs_per_video
        self.frame_interval = frame_interval
        self.num_classes = 2
        self.epoch = 0
        self.max_frames = max_frames
        self.min_frames = min_frames if min_frames else max_frames * 0.3
        self.aug = augmentations[augment]
        self.resize = resize
        # ToTensor(normalize=normalize) is gone from albumentations.pytorch: ToTensorV2 is what is left
        self.trans = Compose([CenterCrop(*resize), ToTensorV2()])
        self.dataset = datalabel

    def next_epoch(self):
        self.epoch += 1

    def __getitem__(self, item):
        vid = self.dataset[item // self.imgs_per_video]
        vd = sorted(os.listdir(vid[0]))
        if len(vd) < self.min_frames:
            raise (Exception(str(vid)))
        ind = (item % self.imgs_per_video * self.frame_interval + self.epoch) % min(len(vd), self.max_frames)
        ind = vd[ind]
        image = cv2.imread(os.path.join(vid[0], ind))
        image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
        if self.phase == 'train':
            image = self.aug(image=image)['image']
        return (self.trans(image=image)["image"]).float(), vid[1]

    def __len__(self):
        return len(self.dataset) * self.imgs_per_video


# ---- models/efficientnet/utils.py + a small MAT-like net ----------------------------------------------------
class Conv2dStaticSamePadding(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, image_size, stride=1, **kwargs):
        super().__init__(in_channels, out_channels, kernel_size, stride, **kwargs)
        ih = iw = image_size
        kh, kw = self.weight.size()[-2:]
        sh, sw = self.stride
        oh, ow = -(-ih // sh), -(-iw // sw)
        pad_h = max((oh - 1) * sh + (kh - 1) * self.dilation[0] + 1 - ih, 0)
        pad_w = max((ow - 1) * sw + (kw - 1) * self.dilation[1] + 1 - iw, 0)
        self.static_padding = nn.ZeroPad2d((pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2))

    def forward(self, x):
        x = self.static_padding(x)
        x = F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        return x


class EfficientNet(nn.Module):
    def __init__(self, image_size=32):
        super().__init__()
        self._conv_stem = Conv2dStaticSamePadding(3, 16, 3, image_size, stride=2, bias=True)
        self._bn0 = nn.BatchNorm2d(16)
        self._blocks = nn.Sequential(nn.Conv2d(16, 32, 3, 1, 1), nn.BatchNorm2d(32), nn.SiLU(),
                                     nn.Conv2d(32, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.SiLU())

    def forward(self, x):
        return self._blocks(F.silu(self._bn0(self._conv_stem(x))))


class MAT(nn.Module):
    def __init__(self, num_classes=2, M=4):
        super().__init__()
        self.net = EfficientNet()
        self.attentions = nn.Conv2d(32, M, 1)
        self.projection_local = nn.Linear(32 * M, 64)
        self.ensemble_classifier_fc = nn.Linear(64, num_classes)

    def forward(self, x, y=None, train_batch=False, AG=None):
        feature_maps = self.net(x)
        attention_maps = torch.softmax(self.attentions(feature_maps).flatten(2), -1)
        feats = torch.einsum("bmn,bcn->bmc", attention_maps, feature_maps.flatten(2)).flatten(1)
        ensemble_logit = self.ensemble_classifier_fc(F.relu(self.projection_local(feats)))
        loss = F.cross_entropy(ensemble_logit, y)
        return {"ensemble_loss": loss, "aux_loss": torch.zeros(()), "ensemble_logit": ensemble_logit}


def ACC(x, y):
    return (x.argmax(-1) == y).float().mean()


def train_loss(loss_pack, config):
    return config["ensemble_loss_weight"] * loss_pack["ensemble_loss"] + config["aux_loss_weight"] * loss_pack["aux_loss"]


def run(logs, data_loader, net, optimizer, local_rank, config, phase='train'):
    print('start ', phase)
    net.train() if phase == 'train' else net.eval()
    losses, accs = [], []
    for i, (X, y) in enumerate(data_loader):
        X = X.to(local_rank, non_blocking=True)
        y = y.to(local_rank, non_blocking=True)
        with torch.set_grad_enabled(phase == 'train'):
            loss_pack = net(X, y, train_batch=True)
        if phase == 'train':
            batch_loss = train_loss(loss_pack, config)
            batch_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        losses.append(loss_pack["ensemble_loss"].item())
        accs.append(ACC(loss_pack["ensemble_logit"], y).item())
    logs["%s_loss" % phase] = float(np.mean(losses))
    logs["%s_acc" % phase] = float(np.mean(accs))
    print("%s: ensemble_loss:%.4f  ensemble_acc:%.4f" % (phase, logs["%s_loss" % phase], logs["%s_acc" % phase]))


def main():
    config = {"batch_size": 8, "epochs": 2, "learning_rate": 1e-3, "ensemble_loss_weight": 1.0, "aux_loss_weight": 0.5}
    local_rank = "cpu"
    files = make_ffpp()
    train_dataset = DeepfakeDataset(phase='train', datalabel=files[:6])
    validate_dataset = DeepfakeDataset(phase='test', datalabel=files[6:])
    train_loader = DataLoader(train_dataset, batch_size=config["batch_size"], shuffle=True)
    validate_loader = DataLoader(validate_dataset, batch_size=config["batch_size"])
    net = MAT().to(local_rank)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config["learning_rate"])
    logs = {}
    try:
        for epoch in range(config["epochs"]):
            logs['epoch'] = epoch
            train_dataset.next_epoch()
            run(logs, train_loader, net, optimizer, local_rank, config, phase='train')
            run(logs, validate_loader, net, optimizer, local_rank, config, phase='valid')
    finally:
        shutil.rmtree(ROOT, ignore_errors=True)


main()
