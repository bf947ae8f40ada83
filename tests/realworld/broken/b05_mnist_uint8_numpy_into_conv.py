"""MNIST-style example fed raw uint8 images imported from a numpy array with torch.from_numpy
source: https://github.com/pytorch/pytorch/issues/2458
reported-error: RuntimeError: Input type (Byte) and weight type (Float) should be the same
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 27
root-cause: line 46
expect: DG004
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.conv2 = nn.Conv2d(10, 20, kernel_size=5)
        self.conv2_drop = nn.Dropout2d()
        self.fc1 = nn.Linear(320, 50)
        self.fc2 = nn.Linear(50, 10)

    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))  # fails-here
        x = F.relu(F.max_pool2d(self.conv2_drop(self.conv2(x)), 2))
        x = x.view(-1, 320)
        x = F.relu(self.fc1(x))
        x = F.dropout(x, training=self.training)
        x = self.fc2(x)
        return F.log_softmax(x, dim=1)


def main():
    parser = argparse.ArgumentParser(description='PyTorch MNIST Example')
    parser.add_argument('--batch-size', type=int, default=16)
    parser.add_argument('--lr', type=float, default=0.01)
    parser.add_argument('--momentum', type=float, default=0.5)
    args = parser.parse_args([])

    # the images come as a numpy array (N, 1, 28, 28) of uint8 pixels
    images = np.random.randint(0, 256, size=(64, 1, 28, 28), dtype=np.uint8)
    targets = np.random.randint(0, 10, size=(64,))
    train_x = torch.from_numpy(images)  # root-cause
    train_y = torch.from_numpy(targets)

    model = Net()
    optimizer = optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    model.train()
    for i in range(0, len(train_x), args.batch_size):
        data, target = train_x[i:i + args.batch_size], train_y[i:i + args.batch_size]
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()


if __name__ == '__main__':
    main()
