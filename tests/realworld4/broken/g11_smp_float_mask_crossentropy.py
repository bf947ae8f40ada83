"""Multi-class segmentation after swapping DiceLoss for CrossEntropyLoss: the Dataset still returns the class-index mask as float, which CrossEntropyLoss rejects
source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/466
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' in call to _thnn_nll_loss2d_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Double at line 55
root-cause: line 31
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data import Dataset as BaseDataset

CLASSES = ["sky", "building", "pole", "road", "car", "unlabelled"]


class Dataset(BaseDataset):
    """CamVid-like dataset: images plus a single-channel mask of class values."""

    def __init__(self, n=24, size=64, classes=None, augmentation=None, preprocessing=None):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
        self.masks = rng.integers(0, len(CLASSES), size=(n, size, size), dtype=np.uint8)
        self.class_values = [CLASSES.index(cls.lower()) for cls in classes]
        self.preprocessing = preprocessing

    def __getitem__(self, i):
        image = self.images[i].astype("float32") / 255.0
        mask = self.masks[i]
        mask = np.select([mask == v for v in self.class_values], list(range(len(self.class_values))), 0)
        mask = mask.astype("float")  # root-cause
        return torch.from_numpy(image.transpose(2, 0, 1)), torch.from_numpy(mask)

    def __len__(self):
        return len(self.images)


class TinyUnet(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, classes, 3, padding=1))

    def forward(self, x):
        return self.dec(self.enc(x))


class TrainEpoch:
    def __init__(self, model, loss, optimizer):
        self.model, self.loss, self.optimizer = model, loss, optimizer

    def batch_update(self, x, y):
        self.optimizer.zero_grad()
        prediction = self.model.forward(x)
        loss = self.loss(prediction, y)  # fails-here
        loss.backward()
        self.optimizer.step()
        return loss, prediction

    def run(self, dataloader):
        for x, y in dataloader:
            loss, _ = self.batch_update(x, y)
        return {"loss": loss.item()}


if __name__ == "__main__":
    train_dataset = Dataset(classes=["car", "road", "building", "sky"])
    train_loader = DataLoader(train_dataset, batch_size=8, shuffle=True, num_workers=0)
    model = TinyUnet(classes=4)
    loss = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam([dict(params=model.parameters(), lr=0.0001)])
    train_epoch = TrainEpoch(model, loss=loss, optimizer=optimizer)
    for i in range(0, 2):
        print("\nEpoch: {}".format(i))
        train_logs = train_epoch.run(train_loader)
        print(train_logs)
