"""Semi-supervised few-shot training (BOSS / FixMatch style): the labelled subset's labels are read from a binary index file as 4-byte integers and batched by the DataLoader as int32 before the supervised cross-entropy criterion
source: https://github.com/lnsmith54/BOSS/pull/2
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward (loss_x = criteria_x(logits_x, lbs_x))
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 63
root-cause: line 26
expect: DG006
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def write_cifar_subset(root, n_lab=40, n_unlab=80, n_classes=10, seed=0):
    rng = np.random.default_rng(seed)
    rng.random((n_lab, 3, 8, 8)).astype(np.float32).tofile(os.path.join(root, "lab_x.bin"))
    rng.integers(0, n_classes, n_lab).astype("<i4").tofile(os.path.join(root, "lab_y.bin"))
    rng.random((n_unlab, 3, 8, 8)).astype(np.float32).tofile(os.path.join(root, "unlab_x.bin"))


def load_data_train(root):
    data_x = np.fromfile(os.path.join(root, "lab_x.bin"), dtype=np.float32).reshape(-1, 3, 8, 8)
    label_x = np.fromfile(os.path.join(root, "lab_y.bin"), dtype="<i4")  # root-cause
    data_u = np.fromfile(os.path.join(root, "unlab_x.bin"), dtype=np.float32).reshape(-1, 3, 8, 8)
    return data_x, label_x, data_u


class Cifar(Dataset):
    def __init__(self, data, labels=None):
        self.data, self.labels = data, labels

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        im = torch.from_numpy(self.data[idx])
        if self.labels is None:
            return im + 0.05 * torch.randn_like(im), im
        return im, self.labels[idx]


class WideResnet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, n_classes)

    def forward(self, x):
        return self.fc(self.body(x))


def train_one_epoch(model, criteria_x, criteria_u, optim, dl_x, dl_u, thr=0.5, lam_u=1.0):
    model.train()
    for (ims_x, lbs_x), (ims_u_weak, ims_u_strong) in zip(dl_x, dl_u):
        logits_x = model(ims_x)
        with torch.no_grad():
            probs = torch.softmax(model(ims_u_weak), dim=1)
            scores, lbs_u_guess = probs.max(dim=1)
            mask = (scores >= thr).float()
        loss_x = criteria_x(logits_x, lbs_x)  # fails-here
        loss_u = (criteria_u(model(ims_u_strong), lbs_u_guess) * mask).mean()
        loss = loss_x + lam_u * loss_u
        optim.zero_grad()
        loss.backward()
        optim.step()
    return loss_x.item(), loss_u.item()


def train():
    root = tempfile.mkdtemp()
    write_cifar_subset(root)
    data_x, label_x, data_u = load_data_train(root)
    dl_x = DataLoader(Cifar(data_x, label_x), batch_size=8, shuffle=True, drop_last=True)
    dl_u = DataLoader(Cifar(data_u), batch_size=16, shuffle=True, drop_last=True)
    model = WideResnet()
    criteria_x = nn.CrossEntropyLoss()
    criteria_u = nn.CrossEntropyLoss(reduction="none")
    optim = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
    for epoch in range(2):
        print(epoch, train_one_epoch(model, criteria_x, criteria_u, optim, dl_x, dl_u))


if __name__ == "__main__":
    train()
