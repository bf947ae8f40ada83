"""Unsupervised segmentation with scribbles: the scribble labels are read as a NumPy int32 map and target_scr[inds_scr] goes into the scribble CrossEntropyLoss
source: https://github.com/kanezaki/pytorch-unsupervised-segmentation-tip/issues/4
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 77
root-cause: line 40
expect: DG006
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

parser = argparse.ArgumentParser(description="PyTorch Unsupervised Segmentation")
parser.add_argument("--scribble", action="store_true", default=True)
parser.add_argument("--nChannel", default=16, type=int)
parser.add_argument("--maxIter", default=3, type=int)
parser.add_argument("--lr", default=0.1, type=float)
parser.add_argument("--stepsize_sim", default=1, type=float)
parser.add_argument("--stepsize_con", default=1, type=float)
parser.add_argument("--stepsize_scr", default=0.5, type=float)
args = parser.parse_args()
use_cuda = torch.cuda.is_available()

rng = np.random.default_rng(0)
im = rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)
data = torch.from_numpy(np.array([im.transpose((2, 0, 1)).astype("float32") / 255.0]))
if use_cuda:
    data = data.cuda()

if args.scribble:
    mask = np.full((32, 32), 255)
    mask[4:8, 4:20] = 1
    mask[20:24, 10:28] = 3
    mask = mask.reshape(-1)
    mask_inds = np.unique(mask)
    mask_inds = np.delete(mask_inds, np.argwhere(mask_inds == 255))
    inds_sim = torch.from_numpy(np.where(mask == 255)[0])
    inds_scr = torch.from_numpy(np.where(mask != 255)[0])
    target_scr = torch.from_numpy(mask.astype(np.int32))  # root-cause
    if use_cuda:
        inds_sim, inds_scr, target_scr = inds_sim.cuda(), inds_scr.cuda(), target_scr.cuda()
    args.minLabels = len(mask_inds)


class MyNet(nn.Module):
    def __init__(self, input_dim):
        super().__init__()
        self.conv1 = nn.Conv2d(input_dim, args.nChannel, kernel_size=3, padding=1)
        self.bn1 = nn.BatchNorm2d(args.nChannel)
        self.conv3 = nn.Conv2d(args.nChannel, args.nChannel, kernel_size=1)
        self.bn3 = nn.BatchNorm2d(args.nChannel)

    def forward(self, x):
        return self.bn3(self.conv3(torch.relu(self.bn1(self.conv1(x)))))


model = MyNet(data.size(1))
if use_cuda:
    model.cuda()
model.train()
loss_fn = nn.CrossEntropyLoss()
loss_fn_scr = nn.CrossEntropyLoss()
loss_hpy, loss_hpz = nn.L1Loss(reduction="mean"), nn.L1Loss(reduction="mean")
HPy_target = torch.zeros(31, 32, args.nChannel, device=data.device)
HPz_target = torch.zeros(32, 31, args.nChannel, device=data.device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)

for batch_idx in range(args.maxIter):
    optimizer.zero_grad()
    output = model(data)[0]
    output = output.permute(1, 2, 0).contiguous().view(-1, args.nChannel)
    outputHP = output.reshape((32, 32, args.nChannel))
    lhpy = loss_hpy(outputHP[1:, :, :] - outputHP[0:-1, :, :], HPy_target)
    lhpz = loss_hpz(outputHP[:, 1:, :] - outputHP[:, 0:-1, :], HPz_target)
    _, target = torch.max(output, 1)
    loss = args.stepsize_sim * loss_fn(output[inds_sim], target[inds_sim]) + args.stepsize_scr * loss_fn_scr(output[inds_scr], target_scr[inds_scr])  # fails-here
    loss = loss + args.stepsize_con * (lhpy + lhpz)
    loss.backward()
    optimizer.step()
    print(batch_idx, "/", args.maxIter, "|", " loss :", loss.item())
