"""Notebook export of the book's chapter 2 (LeNet on a random 32x32 input, then nn.MSELoss against a dummy target): the reader builds the dummy target with NumPy (np.arange(0, 10) / 10) instead of t.arange, so the target is float64 and the loss silently becomes double
source: https://github.com/chenyuntc/pytorch-book/issues/83
reported-error: RuntimeError: Expected object of type torch.FloatTensor but found type torch.LongTensor for argument #2 'target' (criterion = nn.MSELoss(); target = Variable(t.arange(0,10)))
outcome: ok (silent: criterion(output, target) at line 63 returns a float64 loss, printed as "loss dtype torch.float64"; no error on torch 2.13)
root-cause: line 61
expect: DG008
"""
# coding: utf-8

# In[1]:

import numpy as np
import torch as t
import torch.nn as nn
import torch.nn.functional as F


# In[2]:

class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.view(x.size()[0], -1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
print(net)


# In[3]:

params = list(net.parameters())
print(len(params))
for name, parameters in net.named_parameters():
    print(name, ":", parameters.size())


# In[4]:

t.manual_seed(0)
input = t.randn(1, 1, 32, 32)
out = net(input)
out.size()


# In[5]:

output = net(input)
target = t.from_numpy(np.arange(0, 10) / 10.0).view(1, 10)  # root-cause
criterion = nn.MSELoss()
loss = criterion(output, target)  # fails-here
print("loss", loss.item(), "loss dtype", loss.dtype)


# In[6]:

import torch.optim as optim

optimizer = optim.SGD(net.parameters(), lr=0.01)
for step in range(3):
    optimizer.zero_grad()
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    print("step", step, "loss", round(loss.item(), 4))
