"""Zero-shot learning (CIZSL / GAZSL style) data utilities: image labels come from a MATLAB .mat file (int32), are wrapped with torch.from_numpy, and map_label builds the remapped labels with zeros_like, so the seen-class classifier's NLLLoss gets an IntTensor
source: https://github.com/mhelhoseiny/CIZSL/issues/1
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 65
root-cause: line 40
expect: DG006
"""
import os
import tempfile

import numpy as np
import scipy.io as sio
import torch
import torch.nn as nn


def make_fake_cub(root, n=60, feat_dim=32, att_dim=12, n_classes=6, seed=0):
    rng = np.random.default_rng(seed)
    labels = rng.integers(1, n_classes + 1, n).astype(np.int32)[:, None]
    sio.savemat(os.path.join(root, "res101.mat"), {"features": rng.random((feat_dim, n)), "labels": labels})
    sio.savemat(os.path.join(root, "att_splits.mat"), {"att": rng.random((att_dim, n_classes)), "trainval_loc": np.arange(1, n + 1)[:, None]})


def map_label(label, classes):
    mapped_label = torch.zeros_like(label)  # root-cause-alt
    for i in range(classes.size(0)):
        mapped_label[label == classes[i]] = i
    return mapped_label


class DATA_LOADER:
    def __init__(self, dataroot):
        matcontent = sio.loadmat(os.path.join(dataroot, "res101.mat"))
        feature = matcontent["features"].T
        label = matcontent["labels"].squeeze() - 1
        matcontent = sio.loadmat(os.path.join(dataroot, "att_splits.mat"))
        trainval_loc = matcontent["trainval_loc"].squeeze() - 1
        self.attribute = torch.from_numpy(matcontent["att"].T).float()
        self.train_feature = torch.from_numpy(feature[trainval_loc]).float()
        self.train_label = torch.from_numpy(label[trainval_loc])  # root-cause
        self.seenclasses = torch.from_numpy(np.unique(self.train_label.numpy()))
        self.ntrain = self.train_feature.size(0)


class LINEAR_LOGSOFTMAX(nn.Module):
    def __init__(self, input_dim, nclass):
        super().__init__()
        self.fc = nn.Linear(input_dim, nclass)
        self.logic = nn.LogSoftmax(dim=1)

    def forward(self, x):
        return self.logic(self.fc(x))


def pretrain_classifier(data, nepoch=3, batch_size=20):
    train_label = map_label(data.train_label, data.seenclasses)
    model = LINEAR_LOGSOFTMAX(data.train_feature.size(1), data.seenclasses.size(0))
    criterion = nn.NLLLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.5, 0.999))
    for epoch in range(nepoch):
        perm = torch.randperm(data.ntrain)
        for i in range(0, data.ntrain, batch_size):
            idx = perm[i : i + batch_size]
            output = model(data.train_feature[idx])
            loss = criterion(output, train_label[idx])  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"[{epoch}] cls loss {loss.item():.4f}")


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    make_fake_cub(root)
    pretrain_classifier(DATA_LOADER(root))
