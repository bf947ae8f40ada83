"""DANN cross-session EEG emotion recognition (LaGrange151235/CS3507_EEG_Transfer-Learning layout: source/DA/DANN/train.py with utils.npArraryDataset and model.DANN): the dataset module stores the SEED-IV labels with .float(), and this training loop moves them to the device without the repository's .long(), so the class NLLLoss gets float targets
source: https://github.com/LaGrange151235/CS3507_EEG_Transfer-Learning/blob/be615dd3332895f1f4c3831972094c42dc55535a/source/DA/DANN/utils.py
reported-error: (the repository's train.py calls source_label.long() on every batch; without it the float labels from utils.npArraryDataset fail with RuntimeError: expected target dtype to be Long or Byte, but got Float)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at train.py:55
root-cause: utils.py:8
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader

from model import DANN
from utils import npArraryDataset


def normalize_data(data):
    data = torch.from_numpy(data)
    mean = data.mean(dim=0, keepdim=True)
    standard = data.std(dim=0, unbiased=True, keepdim=True)
    data = (data - mean) / standard
    return np.array(data)


def train(bs=64, ne=2, lr=0.001):
    rng = np.random.default_rng(0)
    train_data = normalize_data(rng.normal(size=(512, 310)))
    train_label = rng.integers(0, 4, size=512).astype(np.float64)
    test_data = normalize_data(rng.normal(0.3, 1.0, size=(256, 310)))
    test_label = rng.integers(0, 4, size=256).astype(np.float64)

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = DANN(momentum=0.5).to(device)
    optimizer = optim.Adam(model.parameters(), lr=lr)
    class_loss = nn.NLLLoss()
    domain_loss = nn.NLLLoss()
    train_dataloader = DataLoader(npArraryDataset(train_data, train_label), batch_size=bs, shuffle=True)
    test_dataloader = DataLoader(npArraryDataset(test_data, test_label), batch_size=bs, shuffle=True)

    for epoch in range(ne):
        len_dataloader = min(len(train_dataloader), len(test_dataloader))
        source_iter, target_iter = iter(train_dataloader), iter(test_dataloader)
        model.train()
        for i in range(len_dataloader):
            p = float(i + epoch * len_dataloader) / ne / len_dataloader
            alpha = 0.5 * (2. / (1. + np.exp(-10 * p)) - 1)
            source_value, source_label = next(source_iter)
            optimizer.zero_grad()
            batch_size = len(source_label)
            source_value = source_value.to(device)
            source_label = source_label.to(device)
            source_domain_label = torch.zeros(batch_size).long().to(device)
            source_class_pred, source_domain_pred = model(input_data=source_value, alpha=alpha)
            source_class_loss = class_loss(source_class_pred, source_label)  # fails-here
            source_domain_loss = domain_loss(source_domain_pred, source_domain_label)

            target_value, _ = next(target_iter)
            target_value = target_value.to(device)
            target_domain_label = torch.ones(len(target_value)).long().to(device)
            _, target_domain_pred = model(input_data=target_value, alpha=alpha)
            target_domain_loss = domain_loss(target_domain_pred, target_domain_label)

            loss = source_class_loss + source_domain_loss + target_domain_loss
            loss.backward()
            optimizer.step()
        print("epoch %d loss %.4f" % (epoch, loss.item()))


if __name__ == "__main__":
    train()
