"""weather-recognition: labels read from the annotation file as float, fed to CrossEntropyLoss
source: https://github.com/mengxianglong123/weather-recognition/issues/1
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' in call to _thnn_nll_loss_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 54
root-cause: line 30
expect: DG006
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

WEATHER = ['cloudy', 'haze', 'rainy', 'snow', 'sunny', 'thunder']


class WeatherDataset(Dataset):
    def __init__(self, n=48):
        rng = np.random.RandomState(1)
        self.imgs = rng.rand(n, 3, 24, 24).astype(np.float32)
        self.lines = ['img_%03d.jpg %d' % (i, rng.randint(len(WEATHER))) for i in range(n)]

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, idx):
        name, label = self.lines[idx].split()
        img = torch.from_numpy(self.imgs[idx])
        label = torch.tensor(float(label))  # root-cause
        return img, label


class WeatherNet(nn.Module):
    def __init__(self, num_classes=len(WEATHER)):
        super(WeatherNet, self).__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(16 * 16, num_classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def train(args):
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    loader = DataLoader(WeatherDataset(), batch_size=args.batch_size, shuffle=True)
    net = WeatherNet().to(device)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9)
    for epoch in range(args.epochs):
        for step, (imgs, labels) in enumerate(loader):
            imgs, labels = imgs.to(device), labels.to(device)
            outputs = net(imgs)
            loss = loss_fn(outputs, labels)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print('epoch', epoch, 'loss', loss.item())


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--batch_size', type=int, default=8)
    parser.add_argument('--lr', type=float, default=0.01)
    parser.add_argument('--epochs', type=int, default=2)
    train(parser.parse_args([]))
