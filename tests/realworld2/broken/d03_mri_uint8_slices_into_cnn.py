"""MRI slices read as uint8 arrays (like np.array(PIL image)) fed to a CNN without converting to float
source: https://github.com/pytorch/pytorch/issues/14186
reported-error: conv2d does not accept the type of torch.ByteTensor
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 43
root-cause: line 26
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


def load_slice(idx, size=32):
    """Stand-in for np.array(Image.open(path).convert('L')): 8-bit grey levels."""
    rng = np.random.RandomState(idx)
    return rng.randint(0, 256, size=(size, size)).astype(np.uint8)


class MRIDataset(Dataset):
    def __init__(self, n=40):
        self.n = n

    def __getitem__(self, index):
        img = load_slice(index)
        omg = torch.from_numpy(img).unsqueeze(0)  # root-cause
        label = index % 2
        return omg, label

    def __len__(self):
        return self.n


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(16 * 8 * 8, 2)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv1(x)))  # fails-here
        x = self.pool(torch.relu(self.conv2(x)))
        return self.fc(x.view(x.size(0), -1))


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
trainloader = DataLoader(MRIDataset(), batch_size=8, shuffle=True)

for epoch in range(2):
    running_loss = 0.0
    for i, (inputs, labels) in enumerate(trainloader):
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    print('[%d] loss: %.3f' % (epoch + 1, running_loss / len(trainloader)))
