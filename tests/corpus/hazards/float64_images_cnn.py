import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc = nn.Linear(6 * 14 * 14, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv(x)))
        return self.fc(torch.flatten(x, 1))


def load_batch(batch_size=8):
    images = np.random.rand(batch_size, 3, 32, 32)  # already in [0, 1], but float64
    labels = np.random.randint(0, 10, size=batch_size)
    return torch.from_numpy(images), torch.from_numpy(labels)  # expect: DG004


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for i in range(5):
    inputs, labels = load_batch()
    optimizer.zero_grad()
    outputs = net(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
