"""ResNet-style classifier fed straight from a uint8 image Dataset: the ByteTensor batch reaches the first Conv2d (bias=False, like torchvision's conv1)
source: https://github.com/pytorch/pytorch/issues/64145
reported-error: RuntimeError: expected scala[r type ...] from resnet18's conv1 (issue title: F.conv2d: confusing error message when using uint8 input instead of float32)
outcome: RuntimeError: expected scalar type Byte but found Float at line 52
root-cause: line 26
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FolderLikeDataset(Dataset):
    """Decoded images as HWC uint8 arrays, the way PIL/cv2 hand them over."""

    def __init__(self, n=64, size=64, n_classes=5, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, size, size, 3), dtype=np.uint8)
        self.labels = rng.integers(0, n_classes, size=n)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        img = torch.from_numpy(self.images[idx]).permute(2, 0, 1)  # root-cause
        return img, int(self.labels[idx])


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(out)))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(32)
        self.layer1 = nn.Sequential(BasicBlock(32), BasicBlock(32))
        self.fc = nn.Linear(32, num_classes)

    def _forward_impl(self, x):
        x = self.conv1(x)  # fails-here
        x = torch.relu(self.bn1(x))
        x = self.layer1(x)
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))

    def forward(self, x):
        return self._forward_impl(x)


def main():
    loader = DataLoader(FolderLikeDataset(), batch_size=16, shuffle=True)
    model = SmallResNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())


if __name__ == "__main__":
    main()
