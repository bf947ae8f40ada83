"""An SSL_CR_Histo-style BreastPathQ fine-tuning run (re-typed: patches and cellularity scores read from HDF5-like per-slide files into DatasetBreastPathQ_SSLtrain, train() casting targets with .float(), validate() casting them with .long(), MSELoss, the best model kept by the lowest validation loss): the cellularity scores in [0, 1] become 0 (or 1) in validate(), so the validation loss that selects the saved model is measured against truncated targets; the run finishes without any error
source: https://github.com/srinidhiPY/SSL_CR_Histo/issues/5
reported-error: "In eval_BreastPathQ_SSL.py line 123 ... target = target.long() It could translate the float tensor into int64, thus the val_loss could be wrong. Is this a bug here?" (maintainer: "it's an unintentional bug over here. It should have been the target.float() (as in Line 55) instead of target.long()")
outcome: ok (silent: "validation targets seen by the loss: 24/24 zero"; every cellularity score in [0, 1) becomes 0 in validate(), the printed val_loss rises while the MSE against the real scores falls from 0.0675 to 0.0059, and the model kept is "best epoch 3: val_loss 0.2496, real validation MSE 0.0268" instead of the last epoch's 0.0059)
root-cause: line 78
expect: DG008
"""
import glob
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.sampler import SubsetRandomSampler

torch.manual_seed(0)
rng = np.random.default_rng(0)


def write_slide_file(path, n=40, size=16):
    """One BreastPathQ slide: data['x'] patches (C, H, W) in [0, 1], data['y'] cellularity scores (float64)."""
    y = rng.uniform(0.0, 1.0, n)
    x = rng.uniform(0, 0.3, (n, 3, size, size)) + y[:, None, None, None] * np.array([0.6, 0.1, 0.5])[None, :, None, None]
    np.savez(path, x=x.astype(np.float32), y=y)


class DatasetBreastPathQ_SSLtrain(Dataset):
    def __init__(self, dataset_path):
        self.datalist = []
        for data_path in sorted(glob.glob(os.path.join(dataset_path, "*.h5.npz"))):
            data = np.load(data_path)
            data_patches, cls_id = data["x"][:], data["y"][:]
            for idx in range(len(data_patches)):
                self.datalist.append((data_patches[idx], cls_id[idx]))

    def __len__(self):
        return len(self.datalist)

    def __getitem__(self, index):
        img = torch.from_numpy(np.array(self.datalist[index][0]))
        target = torch.from_numpy(np.array(self.datalist[index][1]))
        return img, target


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.features(x)


def train(model, classifier, train_loader, criterion, optimizer):
    model.train()
    classifier.train()
    total, count = 0.0, 0
    for input1, target in train_loader:
        input1, target = input1.float(), target.float()
        output = classifier(model(input1)).view(-1, 1).reshape(-1)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total, count = total + loss.item() * len(target), count + len(target)
    return total / count


def validate(model, classifier, val_loader, criterion):
    model.eval()
    classifier.eval()
    total, count, zeros, true_total = 0.0, 0, 0, 0.0
    with torch.no_grad():
        for input1, target in val_loader:
            true_target = target.float()
            input1, target = input1.float(), target.long()  # root-cause
            output = classifier(model(input1))
            loss = criterion(output, target.view(-1, 1))
            total, count = total + loss.item() * len(target), count + len(target)
            zeros += int((target == 0).sum())
            true_total += criterion(output, true_target.view(-1, 1)).item() * len(target)
    return total / count, zeros, count, true_total / count


with tempfile.TemporaryDirectory() as tmp:
    for slide in range(3):
        write_slide_file(os.path.join(tmp, f"slide_{slide}.h5.npz"))
    dataset = DatasetBreastPathQ_SSLtrain(tmp)
    indices = rng.permutation(len(dataset))
    cut = int(0.8 * len(dataset))
    train_loader = DataLoader(dataset, batch_size=16, sampler=SubsetRandomSampler(indices[:cut].tolist()))
    val_loader = DataLoader(dataset, batch_size=16, sampler=SubsetRandomSampler(indices[cut:].tolist()))

    model, classifier = Net(), nn.Linear(8, 1)
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(list(model.parameters()) + list(classifier.parameters()), lr=1e-2)
    prev_best_val_loss, best_epoch = float("inf"), None
    for epoch in range(12):
        train_loss = train(model, classifier, train_loader, criterion, optimizer)
        val_loss, zeros, n_val, true_val_loss = validate(model, classifier, val_loader, criterion)
        if val_loss < prev_best_val_loss and epoch > 1:
            prev_best_val_loss, best_epoch = val_loss, epoch
            best_true = true_val_loss
        print(f"epoch {epoch} train_loss {train_loss:.4f} val_loss {val_loss:.4f} (against the real scores {true_val_loss:.4f})")
    print(f"validation targets seen by the loss: {zeros}/{n_val} zero")
    print(f"best epoch {best_epoch}: val_loss {prev_best_val_loss:.4f}, real validation MSE {best_true:.4f}")
