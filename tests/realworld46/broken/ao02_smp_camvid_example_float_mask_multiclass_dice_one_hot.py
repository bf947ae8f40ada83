"""Multiclass road-scene segmentation with segmentation_models.pytorch (qubvel/segmentation_models.pytorch: the CamVid example notebook's Dataset, get_preprocessing with to_tensor, smp.utils.train.TrainEpoch; losses/dice.py's DiceLoss(mode='multiclass')), the state of the issue: the user keeps the example's preprocessing, whose to_tensor casts the mask with .astype('float32') like the image, and swaps in the new DiceLoss in multiclass mode, whose F.one_hot needs an int64 class-index target
source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/462
reported-error: dice loss cannot work: y_true = F.one_hot(y_true, num_classes) raises "RuntimeError: one_hot is only applicable to index tensor." when training 4 classes with the example; the maintainer: "I assume your target should be type long"
outcome: RuntimeError: one_hot is only applicable to index tensor of type LongTensor. at line 95
root-cause: line 211
expect: DG006
"""
import os
import tempfile
from typing import List, Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss
from torch.utils.data import DataLoader
from torch.utils.data import Dataset as BaseDataset

BINARY_MODE = "binary"
MULTICLASS_MODE = "multiclass"
MULTILABEL_MODE = "multilabel"


# ---- segmentation_models_pytorch/losses/_functional.py (soft_dice_score, to_tensor, here _functional_to_tensor)
def _functional_to_tensor(x, dtype=None) -> torch.Tensor:
    if isinstance(x, torch.Tensor):
        return x if dtype is None else x.type(dtype)
    if isinstance(x, np.ndarray):
        x = torch.from_numpy(x)
        return x if dtype is None else x.type(dtype)
    if isinstance(x, (list, tuple)):
        x = torch.from_numpy(np.array(x))
        return x if dtype is None else x.type(dtype)


def soft_dice_score(output, target, smooth=0.0, eps=1e-7, dims=None):
    assert output.size() == target.size()
    if dims is not None:
        intersection = torch.sum(output * target, dim=dims)
        cardinality = torch.sum(output + target, dim=dims)
    else:
        intersection = torch.sum(output * target)
        cardinality = torch.sum(output + target)
    dice_score = (2.0 * intersection + smooth) / (cardinality + smooth).clamp_min(eps)
    return dice_score


# ---- segmentation_models_pytorch/losses/dice.py
class DiceLoss(_Loss):

    def __init__(self, mode: str, classes: Optional[List[int]] = None, log_loss: bool = False,
                 from_logits: bool = True, smooth: float = 0.0, ignore_index: Optional[int] = None,
                 eps: float = 1e-7):
        assert mode in {BINARY_MODE, MULTILABEL_MODE, MULTICLASS_MODE}
        super(DiceLoss, self).__init__()
        self.mode = mode
        if classes is not None:
            assert mode != BINARY_MODE, "Masking classes is not supported with mode=binary"
            classes = _functional_to_tensor(classes, dtype=torch.long)
        self.classes = classes
        self.from_logits = from_logits
        self.smooth = smooth
        self.eps = eps
        self.log_loss = log_loss
        self.ignore_index = ignore_index
        self.__name__ = "dice_loss"

    def forward(self, y_pred: torch.Tensor, y_true: torch.Tensor) -> torch.Tensor:
        assert y_true.size(0) == y_pred.size(0)
        if self.from_logits:
            if self.mode == MULTICLASS_MODE:
                y_pred = y_pred.log_softmax(dim=1).exp()
            else:
                y_pred = F.logsigmoid(y_pred).exp()

        bs = y_true.size(0)
        num_classes = y_pred.size(1)
        dims = (0, 2)

        if self.mode == BINARY_MODE:
            y_true = y_true.view(bs, 1, -1)
            y_pred = y_pred.view(bs, 1, -1)

        if self.mode == MULTICLASS_MODE:
            y_true = y_true.view(bs, -1)
            y_pred = y_pred.view(bs, num_classes, -1)

            if self.ignore_index is not None:
                mask = y_true != self.ignore_index
                y_pred = y_pred * mask.unsqueeze(1)
                y_true = F.one_hot((y_true * mask).to(torch.long), num_classes)  # N,H*W -> N,H*W, C
                y_true = y_true.permute(0, 2, 1) * mask.unsqueeze(1)  # H, C, H*W
            else:
                y_true = F.one_hot(y_true, num_classes)  # N,H*W -> N,H*W, C  # fails-here
                y_true = y_true.permute(0, 2, 1)  # H, C, H*W

        if self.mode == MULTILABEL_MODE:
            y_true = y_true.view(bs, num_classes, -1)
            y_pred = y_pred.view(bs, num_classes, -1)

        scores = soft_dice_score(y_pred, y_true.type_as(y_pred), smooth=self.smooth, eps=self.eps, dims=dims)
        if self.log_loss:
            loss = -torch.log(scores.clamp_min(self.eps))
        else:
            loss = 1.0 - scores
        mask = y_true.sum(dims) > 0
        loss *= mask.to(loss.dtype)
        if self.classes is not None:
            loss = loss[self.classes]
        return loss.mean()


# ---- segmentation_models_pytorch/utils/train.py (Epoch / TrainEpoch, reduced: no tqdm, no metrics)
class Epoch:
    def __init__(self, model, loss, stage_name, device="cpu", verbose=True):
        self.model = model
        self.loss = loss
        self.stage_name = stage_name
        self.verbose = verbose
        self.device = device
        self._to_device()

    def _to_device(self):
        self.model.to(self.device)
        self.loss.to(self.device)

    def run(self, dataloader):
        self.on_epoch_start()
        losses = []
        for x, y in dataloader:
            x, y = x.to(self.device), y.to(self.device)
            loss, y_pred = self.batch_update(x, y)
            losses.append(loss.item())
        logs = {self.loss.__name__: float(np.mean(losses))}
        if self.verbose:
            print(self.stage_name, logs)
        return logs


class TrainEpoch(Epoch):
    def __init__(self, model, loss, optimizer, device="cpu", verbose=True):
        super().__init__(model=model, loss=loss, stage_name="train", device=device, verbose=verbose)
        self.optimizer = optimizer

    def on_epoch_start(self):
        self.model.train()

    def batch_update(self, x, y):
        self.optimizer.zero_grad()
        prediction = self.model.forward(x)
        loss = self.loss(prediction, y)
        loss.backward()
        self.optimizer.step()
        return loss, prediction


# ---- smp.Unet (re-typed: a two-level encoder-decoder; the notebook builds it from an ImageNet encoder)
class Unet(nn.Module):
    def __init__(self, in_channels=3, classes=4):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(in_channels, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.up = nn.ConvTranspose2d(32, 16, 2, stride=2)
        self.dec = nn.Sequential(nn.Conv2d(32, 16, 3, padding=1), nn.ReLU())
        self.segmentation_head = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(e1)
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.segmentation_head(d)


# ---- the notebook (examples/cars segmentation (camvid).ipynb), adapted to 4 classes and multiclass masks
class Dataset(BaseDataset):
    """CamVid Dataset. Read images, apply augmentation and preprocessing transformations."""

    CLASSES = ['sky', 'building', 'pole', 'road', 'pavement', 'tree', 'signsymbol', 'fence', 'car',
               'pedestrian', 'bicyclist', 'unlabelled']

    def __init__(self, images_dir, masks_dir, classes=None, augmentation=None, preprocessing=None):
        self.ids = sorted(os.listdir(images_dir))
        self.images_fps = [os.path.join(images_dir, image_id) for image_id in self.ids]
        self.masks_fps = [os.path.join(masks_dir, image_id) for image_id in self.ids]
        self.class_values = [self.CLASSES.index(cls.lower()) for cls in classes]
        self.augmentation = augmentation
        self.preprocessing = preprocessing

    def __getitem__(self, i):
        # read data (cv2.imread / cvtColor replaced by the stored arrays)
        image = np.load(self.images_fps[i])
        raw = np.load(self.masks_fps[i])
        # class index per pixel: position in class_values, 0 (background) elsewhere
        mask = np.zeros(raw.shape, dtype=np.uint8)
        for k, v in enumerate(self.class_values):
            mask[raw == v] = k
        if self.augmentation:
            sample = self.augmentation(image=image, mask=mask)
            image, mask = sample['image'], sample['mask']
        if self.preprocessing:
            sample = self.preprocessing(image=image, mask=mask)
            image, mask = sample['image'], sample['mask']
        return image, mask

    def __len__(self):
        return len(self.ids)


def to_tensor(x, **kwargs):
    return x.transpose(2, 0, 1).astype('float32') if x.ndim == 3 else x.astype('float32')  # root-cause


def get_preprocessing(preprocessing_fn):
    """Construct preprocessing transform (albumentations' A.Lambda(image=preprocessing_fn), A.Lambda(image=to_tensor, mask=to_tensor))."""
    def _transform(image, mask):
        image = preprocessing_fn(image)
        return {'image': to_tensor(image), 'mask': to_tensor(mask)}
    return _transform


def imagenet_preprocessing(x):
    x = x / 255.0
    return (x - np.array([0.485, 0.456, 0.406])) / np.array([0.229, 0.224, 0.225])


def write_camvid(root, n, rng):
    for sub in ("train", "trainannot"):
        os.makedirs(os.path.join(root, sub), exist_ok=True)
    for i in range(n):
        img = rng.integers(0, 256, size=(32, 32, 3)).astype(np.uint8)
        ann = rng.choice([0, 1, 3, 8, 11], size=(32, 32)).astype(np.uint8)
        np.save(os.path.join(root, "train", f"0001TP_{i:06d}.npy"), img)
        np.save(os.path.join(root, "trainannot", f"0001TP_{i:06d}.npy"), ann)


if __name__ == "__main__":
    torch.manual_seed(0)
    DATA_DIR = tempfile.mkdtemp()
    write_camvid(DATA_DIR, 16, np.random.default_rng(0))
    x_train_dir = os.path.join(DATA_DIR, 'train')
    y_train_dir = os.path.join(DATA_DIR, 'trainannot')

    CLASSES = ['unlabelled', 'sky', 'road', 'car']
    DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'
    model = Unet(classes=len(CLASSES))

    train_dataset = Dataset(x_train_dir, y_train_dir, classes=CLASSES,
                            preprocessing=get_preprocessing(imagenet_preprocessing))
    train_loader = DataLoader(train_dataset, batch_size=8, shuffle=True, num_workers=0)

    loss = DiceLoss(mode=MULTICLASS_MODE)
    optimizer = torch.optim.Adam([dict(params=model.parameters(), lr=0.0001)])
    train_epoch = TrainEpoch(model, loss=loss, optimizer=optimizer, device=DEVICE, verbose=True)

    for i in range(0, 3):
        print('\nEpoch: {}'.format(i))
        train_logs = train_epoch.run(train_loader)
