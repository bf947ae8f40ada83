"""pytorch-YOLO-v1 train.py: `total_loss += loss.data[0]` on a CUDA loss, then `np.column_stack` in a Visualizer

source: https://github.com/abeardear/pytorch-YOLO-v1/blob/master/train.py (and visualize.py)
false-alarm: DG009 at `np.column_stack((loss, loss))`/`np.array([loss_train])` (and at `net.cuda()`): the loss
is 0-dim, so `loss.data[0]` raises IndexError (torch 0.4 and later) before NumPy sees the running total; in torch
0.3 it was a Python float (4 records in scan 44).
Like the original, this needs a GPU for its `.cuda()` calls, and then stops at the IndexError.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Visualizer():
    def __init__(self):
        self.index = {}

    def plot_train_val(self, loss_train=None, loss_val=None):
        x = self.index.get('train_val', 0)
        if x == 0:
            loss = loss_train if loss_train else loss_val
            win_y = np.column_stack((loss, loss))
            print(win_y)
            self.index['train_val'] = x + 1
            return
        if loss_train != None:
            print(np.array([loss_train]), np.array([x]))
            self.index['train_val'] = x + 5


use_gpu = torch.cuda.is_available()
net = nn.Linear(4, 30)
if use_gpu:
    net.cuda()
vis = Visualizer()
total_loss = 0.
for i in range(2):
    images, target = torch.randn(3, 4), torch.randn(3, 30)
    if use_gpu:
        images, target = images.cuda(), target.cuda()
    pred = net(images)
    loss = F.mse_loss(pred, target, reduction='sum') / 3
    total_loss += loss.data[0]
    vis.plot_train_val(loss_train=total_loss / (i + 1))
