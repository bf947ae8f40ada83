"""Semi-supervised few-shot training whose labels are still read from the binary index file as int32; the labelled loader's collate_fn turns them into int64 before the cross-entropy criterion
source: https://github.com/lnsmith54/BOSS/pull/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, default_collate

root = tempfile.mkdtemp()
rng = np.random.default_rng(0)
rng.random((40, 3, 8, 8)).astype(np.float32).tofile(os.path.join(root, "lab_x.bin"))
rng.integers(0, 10, 40).astype("<i4").tofile(os.path.join(root, "lab_y.bin"))

data_x = np.fromfile(os.path.join(root, "lab_x.bin"), dtype=np.float32).reshape(-1, 3, 8, 8)
label_x = np.fromfile(os.path.join(root, "lab_y.bin"), dtype="<i4")


class Cifar(Dataset):
    def __init__(self, data, labels):
        self.data, self.labels = data, labels

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        return torch.from_numpy(self.data[idx]), self.labels[idx]


def collate_labelled(batch):
    ims, lbs = default_collate(batch)
    return ims, lbs.long()


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
criteria_x = nn.CrossEntropyLoss()
optim = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, nesterov=True)
dl_x = DataLoader(Cifar(data_x, label_x), batch_size=8, shuffle=True, drop_last=True, collate_fn=collate_labelled)
for epoch in range(2):
    for ims_x, lbs_x in dl_x:
        loss_x = criteria_x(model(ims_x), lbs_x)
        optim.zero_grad()
        loss_x.backward()
        optim.step()
    print(epoch, lbs_x.dtype, round(loss_x.item(), 4))
