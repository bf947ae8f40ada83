"""Detection/segmentation Dataset reading grey images from an HDF5-like store and dividing by 255. in NumPy (float64) in __getitem__, fed to a float32 network
source: https://github.com/eriklindernoren/PyTorch-YOLOv3/issues/523
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #3 'mat1' in call to _th_addmm_
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 57
root-cause: line 40
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FakeH5:
    """Stands in for h5py.File(self.h5_file): uint8 'gt' images and 'label' masks keyed by str(idx)."""

    def __init__(self, n=16, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.data = {
            "gt": {str(i): rng.integers(0, 256, (size, size), dtype=np.uint8) for i in range(n)},
            "label": {str(i): (rng.random((size, size)) > 0.5).astype(np.uint8) * 255 for i in range(n)},
        }

    def __getitem__(self, key):
        return self.data[key]


class DetectDataset(Dataset):
    def __init__(self, h5_file, img_size=32, augment=False):
        super(DetectDataset, self).__init__()
        self.h5_file = h5_file
        self.img_size = img_size
        self.augment = augment

    def __len__(self):
        return len(self.h5_file["gt"])

    def __getitem__(self, idx):
        f = self.h5_file
        gt = np.expand_dims(f["gt"][str(idx)][:, :] / 255.0, 0)  # root-cause
        labels = np.expand_dims(f["label"][str(idx)][:, :] / 255.0, 0)
        img = torch.from_numpy(gt)
        if self.augment and np.random.random() < 0.5:
            img = torch.flip(img, [-1])
        return img, torch.from_numpy(labels.astype(np.float32))


class Darknetish(nn.Module):
    def __init__(self, img_size=32):
        super().__init__()
        self.flatten = nn.Flatten()
        self.fc1 = nn.Linear(img_size * img_size, 128)
        self.fc2 = nn.Linear(128, img_size * img_size)
        self.img_size = img_size

    def forward(self, x):
        x = torch.relu(self.fc1(self.flatten(x)))  # fails-here
        return self.fc2(x).view(-1, 1, self.img_size, self.img_size)


def train(model, loader, epochs=1):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        for batch_i, (imgs, targets) in enumerate(loader):
            outputs = model(imgs)
            loss = criterion(outputs, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"[Epoch {epoch}, Batch {batch_i}] loss {loss.item():.4f}")


if __name__ == "__main__":
    dataset = DetectDataset(FakeH5(), img_size=32, augment=True)
    dataloader = DataLoader(dataset, batch_size=4, shuffle=True)
    train(Darknetish(32), dataloader)
