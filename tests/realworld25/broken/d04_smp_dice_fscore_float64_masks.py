"""Binary segmentation with a segmentation_models.pytorch-style Dice loss built on utils.functions.f_score: the Dataset turns the label image into a mask with .astype('float') (float64), so gt * pr in f_score promotes the whole loss to float64 without any error
source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/41
reported-error: tp = torch.sum(gt * pr) RuntimeError: expected backend CUDA and dtype Double but got backend CUDA and dtype Float (my target is torch.double())
outcome: ok (silent: the Dice loss and its gradients are computed in float64; the run prints 'dice loss dtype torch.float64')
root-cause: line 55
expect: DG008
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- utils/functions.py
def f_score(pr, gt, beta=1, eps=1e-7, threshold=None, activation="sigmoid"):
    if activation == "sigmoid":
        pr = torch.sigmoid(pr)
    if threshold is not None:
        pr = (pr > threshold).float()
    tp = torch.sum(gt * pr)  # fails-here
    fp = torch.sum(pr) - tp
    fn = torch.sum(gt) - tp
    return ((1 + beta ** 2) * tp + eps) / ((1 + beta ** 2) * tp + beta ** 2 * fn + fp + eps)


# ---- utils/losses.py
class DiceLoss(nn.Module):
    __name__ = "dice_loss"

    def __init__(self, eps=1e-7, activation="sigmoid"):
        super().__init__()
        self.eps = eps
        self.activation = activation

    def forward(self, y_pr, y_gt):
        return 1 - f_score(y_pr, y_gt, beta=1.0, eps=self.eps, threshold=None, activation=self.activation)


# ---- dataset.py
class CamVidLikeDataset(Dataset):
    CLASSES = ["sky", "building", "pole", "road", "car"]

    def __init__(self, n=16, classes=("car",), size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 255, (n, size, size, 3), dtype=np.uint8)
        self.labels = rng.integers(0, len(self.CLASSES), (n, size, size), dtype=np.uint8)
        self.class_values = [self.CLASSES.index(c) for c in classes]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = self.images[i].astype(np.float32).transpose(2, 0, 1) / 255.0
        masks = [(self.labels[i] == v) for v in self.class_values]
        mask = np.stack(masks, axis=0).astype("float")  # root-cause
        return torch.from_numpy(image), torch.from_numpy(mask)


# ---- model.py
class TinyUnet(nn.Module):
    def __init__(self, classes=1):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, classes, 3, padding=1))

    def forward(self, x):
        return self.dec(self.enc(x))


def train_epoch(model, loader, loss, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        prediction = model(x)
        loss_value = loss(prediction, y)
        loss_value.backward()
        optimizer.step()
    return loss_value


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyUnet(classes=1)
    loader = DataLoader(CamVidLikeDataset(), batch_size=4, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        loss_value = train_epoch(model, loader, DiceLoss(), optimizer)
        print(f"epoch {epoch} dice loss {loss_value.item():.4f}")
    print("dice loss dtype", loss_value.dtype)
