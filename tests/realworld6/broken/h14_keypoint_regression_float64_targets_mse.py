"""Keypoint regression where the targets are normalised with NumPy (float64) and only the model output is cast; MSE against them silently returns a float64 loss
source: https://github.com/pytorch/pytorch/issues/5004
reported-error: loss.backward() --> expected FloatTensor but found DoubleTensor (fixed by adding .float() and removing the other useless .double() calls)
outcome: ok (silent: nn.MSELoss(pred float32, target float64) at line 52 returns a torch.float64 loss, printed as "loss dtype torch.float64"; the loss graph runs in double)
root-cause: line 28
expect: DG008
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FaceLandmarksDataset(Dataset):
    def __init__(self, n=64, img_size=24, n_points=5, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.random((n, 1, img_size, img_size), dtype=np.float32)
        self.landmarks = rng.uniform(0, img_size, size=(n, n_points, 2))
        self.img_size = img_size

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        landmarks = (self.landmarks[idx] - self.img_size / 2) / (self.img_size / 2)
        return torch.from_numpy(self.images[idx]), torch.from_numpy(landmarks.reshape(-1))  # root-cause


class Net(nn.Module):
    def __init__(self, n_out=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.fc = nn.Linear(8 * 12 * 12, n_out)

    def forward(self, x):
        return self.fc(self.features(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()
    loader = DataLoader(FaceLandmarksDataset(), batch_size=16, shuffle=True)
    net = Net()
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(args.epochs):
        for images, landmarks in loader:
            predictions = net(images).float()
            loss = criterion(predictions, landmarks)  # fails-here
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} loss dtype {loss.dtype}")


if __name__ == "__main__":
    main()
