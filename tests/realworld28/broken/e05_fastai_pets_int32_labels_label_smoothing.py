"""Oxford-IIIT Pets classifier in a fastai2-style pipeline: the label getter maps each breed name through a NumPy int32 vocab array, so the collated targets are int32, and LabelSmoothingCrossEntropy hands them to F.nll_loss, which accepts only int64 (or uint8) class indices
source: https://github.com/fastai/fastai_dev/issues/302
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' (in LabelSmoothingCrossEntropy.forward: F.nll_loss(log_preds, target, reduction=self.reduction))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 49
root-cause: line 23
expect: DG006
"""
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

BREEDS = ["Abyssinian", "Bengal", "Birman", "Bombay", "beagle", "boxer", "chihuahua", "pug"]
vocab = {b: i for i, b in enumerate(BREEDS)}


def get_y_fun(input):
    im_name = os.path.basename(input)
    breed = im_name.rsplit("_", 1)[0]
    return np.array(vocab[breed], dtype=np.int32)  # root-cause


class PetsDataset(Dataset):
    def __init__(self, n=32):
        rng = np.random.default_rng(0)
        self.files = [f"/data/oxford-iiit-pet/images/{BREEDS[i % 8]}_{i}.jpg" for i in range(n)]
        self.images = rng.random((n, 3, 32, 32)).astype(np.float32)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.from_numpy(self.images[i]), torch.from_numpy(get_y_fun(self.files[i]))


# ---- fastai2/layers.py
class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, eps: float = 0.1, reduction="mean"):
        super().__init__()
        self.eps, self.reduction = eps, reduction

    def forward(self, output, target):
        c = output.size()[-1]
        log_preds = F.log_softmax(output, dim=-1)
        loss = -log_preds.sum(dim=-1).mean() if self.reduction == "mean" else -log_preds.sum(dim=-1)
        return loss * self.eps / c + (1 - self.eps) * F.nll_loss(log_preds, target, reduction=self.reduction)  # fails-here


def resnet34_stub(n_out):
    return nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(16, n_out))


def fit_one_cycle(model, dls, loss_func, n_epoch=2, lr_max=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr_max)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr_max, total_steps=n_epoch * len(dls))
    for epoch in range(n_epoch):
        for xb, yb in dls:
            loss = loss_func(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        print("epoch", epoch, "train_loss", round(loss.item(), 4))


if __name__ == "__main__":
    dbunch = DataLoader(PetsDataset(), batch_size=8, shuffle=False)
    learn_model = resnet34_stub(len(BREEDS))
    fit_one_cycle(learn_model, dbunch, loss_func=LabelSmoothingCrossEntropy(), n_epoch=4)
