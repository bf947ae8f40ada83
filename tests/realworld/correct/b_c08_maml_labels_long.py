"""Fixed MAML-Pytorch#45: int32 support/query labels converted with .long() before F.cross_entropy
source: https://github.com/dragen1860/MAML-Pytorch/issues/45
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target'
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

n_way, k_spt, task_num, imgsz = 5, 2, 2, 14
net = nn.Sequential(nn.Conv2d(1, 8, 3, 2), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, n_way))
meta_optim = torch.optim.Adam(net.parameters(), lr=1e-3)

x_spt = torch.from_numpy(np.random.rand(task_num, n_way * k_spt, 1, imgsz, imgsz).astype(np.float32))
y_spt = torch.from_numpy(np.array([np.repeat(np.arange(n_way), k_spt)] * task_num).astype(np.int32))

losses = 0
for i in range(task_num):
    logits = net(x_spt[i])
    losses = losses + F.cross_entropy(logits, y_spt[i].long())
meta_optim.zero_grad()
(losses / task_num).backward()
meta_optim.step()
