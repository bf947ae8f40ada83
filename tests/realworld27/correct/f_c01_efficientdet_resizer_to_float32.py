"""EfficientDet training on a custom COCO-style set whose Normalizer still computes in float64 (NumPy mean/std) and whose Resizer pastes into a float64 np.zeros canvas, but ends with torch.from_numpy(new_image).to(torch.float32) as upstream does now, so the collated batch is float32
source: https://github.com/zylo117/Yet-Another-EfficientDet-Pytorch/issues/94
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

params = {"obj_list": ["crack", "dent", "scratch"], "compound_coef": 0, "batch_size": 4, "lr": 1e-4, "num_epochs": 1}
INPUT_SIZES = [64, 80, 96]


# ---- efficientdet/dataset.py
class CocoDataset(Dataset):
    def __init__(self, n=8, transform=None, seed=0):
        rng = np.random.default_rng(seed)
        self.images = [rng.integers(0, 256, (48 + 4 * i, 56, 3)).astype(np.uint8) for i in range(n)]
        self.boxes = [np.array([[4.0, 6.0, 30.0, 28.0, i % 3]]) for i in range(n)]
        self.transform = transform

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        sample = {"img": self.load_image(idx), "annot": self.boxes[idx].copy()}
        if self.transform:
            sample = self.transform(sample)
        return sample

    def load_image(self, idx):
        return self.images[idx].astype(np.float32) / 255.


def collater(data):
    imgs = [s["img"] for s in data]
    annots = [s["annot"] for s in data]
    scales = [s["scale"] for s in data]
    imgs = torch.from_numpy(np.stack(imgs, axis=0))
    max_num_annots = max(annot.shape[0] for annot in annots)
    annot_padded = torch.ones((len(annots), max_num_annots, 5)) * -1
    for idx, annot in enumerate(annots):
        annot_padded[idx, :annot.shape[0], :] = annot
    imgs = imgs.permute(0, 3, 1, 2)
    return {"img": imgs, "annot": annot_padded, "scale": scales}


class Resizer(object):
    def __init__(self, img_size=512):
        self.img_size = img_size

    def __call__(self, sample):
        image, annots = sample["img"], sample["annot"]
        height, width, _ = image.shape
        scale = self.img_size / max(height, width)
        rh, rw = int(height * scale), int(width * scale)
        ys = (np.arange(rh) / scale).astype(int)
        xs = (np.arange(rw) / scale).astype(int)
        image = image[ys][:, xs]
        new_image = np.zeros((self.img_size, self.img_size, 3))
        new_image[0:rh, 0:rw] = image
        annots[:, :4] *= scale
        return {"img": torch.from_numpy(new_image).to(torch.float32), "annot": torch.from_numpy(annots), "scale": scale}


class Normalizer(object):
    def __init__(self, mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]):
        self.mean = np.array([[mean]])
        self.std = np.array([[std]])

    def __call__(self, sample):
        image, annots = sample["img"], sample["annot"]
        return {"img": ((image.astype(np.float32) - self.mean) / self.std), "annot": annots}


class Compose(object):
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, sample):
        for t in self.transforms:
            sample = t(sample)
        return sample


# ---- efficientdet/model.py (tiny stand-in for EfficientNet + BiFPN + heads)
class EfficientDetBackbone(nn.Module):
    def __init__(self, num_classes=80, compound_coef=0):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.SiLU())
        self.regressor = nn.Conv2d(16, 4 * 9, 1)
        self.classifier = nn.Conv2d(16, num_classes * 9, 1)

    def forward(self, inputs):
        feat = self.stem(inputs)
        b = inputs.shape[0]
        return (self.regressor(feat).permute(0, 2, 3, 1).reshape(b, -1, 4),
                self.classifier(feat).permute(0, 2, 3, 1).reshape(b, -1, self.classifier.out_channels // 9))


class ModelWithLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, imgs, annotations, obj_list=None):
        regression, classification = self.model(imgs)
        cls_target = torch.zeros_like(classification)
        cls_loss = nn.functional.binary_cross_entropy_with_logits(classification, cls_target)
        reg_loss = regression.abs().mean() * 0.0 + annotations[..., :4].mean() * 0.0
        return cls_loss, reg_loss


# ---- train.py
def train(opt):
    input_size = INPUT_SIZES[opt["compound_coef"]]
    training_set = CocoDataset(transform=Compose([Normalizer(), Resizer(input_size)]))
    training_generator = DataLoader(training_set, batch_size=opt["batch_size"], shuffle=True, collate_fn=collater)
    model = ModelWithLoss(EfficientDetBackbone(num_classes=len(opt["obj_list"]), compound_coef=opt["compound_coef"]))
    optimizer = torch.optim.AdamW(model.parameters(), opt["lr"])
    for epoch in range(opt["num_epochs"]):
        for data in training_generator:
            imgs, annot = data["img"], data["annot"]
            cls_loss, reg_loss = model(imgs, annot, obj_list=opt["obj_list"])
            loss = cls_loss.mean() + reg_loss.mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(params)
