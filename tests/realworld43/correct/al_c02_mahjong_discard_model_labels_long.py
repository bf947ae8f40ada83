"""Supervised Riichi-Mahjong discard model (windshadow233/Mahjong-AI as in al02: process_data's torch.from_numpy of the label list gives 32-bit integers as on the reporter's machine, label_trans x // 4) with the reporter's fix from Mahjong-AI issue #2, labels = labels.type(torch.LongTensor) before the labels are moved to the device and passed to CrossEntropyLoss; the int32 labels are still used for the tile-kind division (exit 0)
source: https://github.com/windshadow233/Mahjong-AI/issues/2
reported-error: (none filed; the fixed situation of al02)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import random
import tempfile

import numpy as np

import torch
import torch.nn as nn
from torch.nn import CrossEntropyLoss
from torch.optim import Adam


# ---- dataset/tenhou.py (re-typed: a Tenhou log replay is replaced by synthetic 373x34 feature planes; the
# discard label is the 136-tile id the player threw, a Python int as in parse_discard_data)
class TenhouData:
    def __init__(self, path):
        self.rng = np.random.default_rng(int(os.path.basename(path).split(".")[0]))

    def get_rank(self):
        return [0, 1, 2, 3]

    def parse_discard_data(self, target=0):
        features, labels = [], []
        for _ in range(40):
            feature = (self.rng.random((373, 34)) < 0.1).astype(np.float32)
            tile_id = int(self.rng.integers(0, 136))
            features.append(feature)
            labels.append(tile_id)
        return features, labels


# ---- dataset/data.py
def process_data(one_batch, label_trans=None):
    features = []
    labels = []
    for f, lb in one_batch:
        features.append(f)
        labels.append(lb)
    features = torch.from_numpy(np.array(features)).float()
    labels = torch.from_numpy(np.array(labels, dtype=np.intc))
    if callable(label_trans):
        labels = label_trans(labels)
    return features, labels


class TenhouDataset(object):
    def __init__(self, data_dir, batch_size, mode='discard', target_length=1):
        self.data_dir = data_dir
        self.used_data = []
        self.batch_size = batch_size
        self.data_files = sorted(os.listdir(data_dir))
        random.shuffle(self.data_files)
        self.data_buffer = []
        self.func = f'parse_{mode}_data'
        self.target = slice(0, target_length)

    def reset(self):
        self.data_files = list(self.used_data)
        random.shuffle(self.data_files)
        self.used_data.clear()

    def __len__(self):
        return len(self.data_files)

    def update_buffer(self):
        if len(self.data_files) == 0:
            return False
        data_file = self.data_files.pop()
        self.used_data.append(data_file)
        playback = TenhouData(os.path.join(self.data_dir, data_file))
        for target in playback.get_rank()[self.target]:
            features, labels = getattr(playback, self.func)(target=target)
            data = list(zip(features, labels))
            random.shuffle(data)
            self.data_buffer.extend(data)
        return True

    def __call__(self):
        while len(self.data_buffer) < self.batch_size:
            if not self.update_buffer():
                break
        data, self.data_buffer = self.data_buffer[:self.batch_size], self.data_buffer[self.batch_size:]
        return data


# ---- model/models.py (reduced: conv residual blocks over the 34 tile columns)
class ResBlock(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, 3, padding=1)
        self.bn1 = nn.BatchNorm1d(channels)
        self.conv2 = nn.Conv1d(channels, channels, 3, padding=1)
        self.bn2 = nn.BatchNorm1d(channels)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(out)))


class DiscardModel(nn.Module):
    def __init__(self, num_layers=50, in_channels=373, hidden=32):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv1d(in_channels, hidden, 3, padding=1), nn.BatchNorm1d(hidden), nn.ReLU())
        self.blocks = nn.Sequential(*[ResBlock(hidden) for _ in range(num_layers)])
        self.head = nn.Conv1d(hidden, 1, 1)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x))).squeeze(1)  # (batch, 34) tile kinds


# ---- sl_train/train_discard_model.py (wandb logging left out)
def make_logs(data_dir, n_files=4):
    os.makedirs(data_dir, exist_ok=True)
    for i in range(n_files):
        open(os.path.join(data_dir, f"{i}.xml"), "w").close()


def main():
    mode = 'discard'
    parser = argparse.ArgumentParser()
    parser.add_argument('--num_layers', '-n', default=50, type=int)
    parser.add_argument('--epochs', '-e', default=10, type=int)
    args = parser.parse_args(['--num_layers', '2', '--epochs', '1'])

    random.seed(0)
    torch.manual_seed(0)
    data_dir = os.path.join(tempfile.mkdtemp(), 'data')
    make_logs(data_dir)
    train_set = TenhouDataset(data_dir=data_dir, batch_size=32, mode=mode, target_length=2)
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    model = DiscardModel(num_layers=args.num_layers, in_channels=373)
    model.to(device)
    optim = Adam(model.parameters())
    loss_fcn = CrossEntropyLoss()
    for epoch in range(args.epochs):
        while len(train_set) > 0:
            data = train_set()
            if len(data) == 0:
                break
            features, labels = process_data(data, label_trans=lambda x: x // 4)
            labels = labels.type(torch.LongTensor)
            features, labels = features.to(device), labels.to(device)
            output = model(features)
            loss = loss_fcn(output, labels)
            optim.zero_grad()
            loss.backward()
            optim.step()
            print(f"Epoch-{epoch + 1}: loss={loss.item():.3f}")
        train_set.reset()


if __name__ == "__main__":
    main()
