"""Net converted with .half() and trained with Adam at the default eps: NaNs appear
source: https://discuss.pytorch.org/t/adam-half-precision-nans/1765
reported-error: silent
outcome: ok (silent: the loss printed after epoch 0 is already nan; Adam's eps=1e-8 is 0 in float16, so the first optimizer.step at line 45 writes inf/NaN into the weights)
root-cause: line 33
expect: DG012
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 7 * 7, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(x.size(0), -1)
        return self.fc(x)


net = Net()
net.half()  # root-cause-alt
optimizer = optim.Adam(net.parameters(), lr=1e-3)  # root-cause

X = torch.from_numpy(np.random.rand(64, 1, 28, 28).astype(np.float16))
Y = torch.from_numpy(np.random.randint(0, 10, size=64))

for epoch in range(30):
    for i in range(0, 64, 16):
        inp, target = X[i:i + 16], Y[i:i + 16]
        optimizer.zero_grad()
        out = net(inp)
        loss = F.cross_entropy(out, target)
        loss.backward()
        optimizer.step()  # fails-here
    print('epoch %d loss %.4f' % (epoch, loss.item()))
    if not torch.isfinite(loss):
        print('loss went NaN/inf')
        break
