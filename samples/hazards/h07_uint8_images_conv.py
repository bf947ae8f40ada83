"""H07: raw uint8 pixels into a Conv2d.

Convolutions need input, weight and bias to share one dtype. uint8 images fail with
"Input type (unsigned char) and bias type (float) should be the same".
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class SmallCNN(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, kernel_size=3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, kernel_size=3, padding=1)
        self.fc = nn.Linear(16 * 8 * 8, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


def load_images(n=64):
    rng = np.random.default_rng(0)
    images = rng.integers(0, 256, size=(n, 3, 32, 32), dtype=np.uint8)
    labels = rng.integers(0, 10, size=n)
    return torch.from_numpy(images), torch.from_numpy(labels)  # expect: DG004


images, labels = load_images()
loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
model = SmallCNN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

for images_batch, labels_batch in loader:
    optimizer.zero_grad()
    outputs = model(images_batch)
    loss = F.cross_entropy(outputs, labels_batch)
    loss.backward()
    optimizer.step()
