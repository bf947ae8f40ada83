"""Small CNN classifier whose label batches are built with torch.FloatTensor(...) (old Variable-era style); CrossEntropyLoss wants int64 class indices
source: https://php.xlycwl.com/faq/1652446.html
reported-error: RuntimeError: expected scalar type Long but found Float
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 48
root-cause: line 45
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

num_classes = 10
batch_size = 16
learning_rate = 0.01


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(8 * 13 * 13, 64)
        self.fc2 = nn.Linear(64, num_classes)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))
        x = x.view(x.size(0), -1)
        return self.fc2(torch.relu(self.fc1(x)))


def get_batches(n_batches=5, seed=0):
    rng = np.random.RandomState(seed)
    for _ in range(n_batches):
        images = rng.rand(batch_size, 1, 28, 28).astype(np.float32)
        labels = rng.randint(0, num_classes, size=batch_size)
        yield images, labels


def train(net, criterion, optimizer, epochs=2):
    for epoch in range(epochs):
        running_loss = 0.0
        for images, labels in get_batches():
            inputs = Variable(torch.from_numpy(images))
            targets = Variable(torch.FloatTensor(labels))  # root-cause
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, targets)  # fails-here
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print("epoch %d loss %.3f" % (epoch + 1, running_loss))


if __name__ == "__main__":
    net = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=learning_rate, momentum=0.9)
    train(net, criterion, optimizer)
