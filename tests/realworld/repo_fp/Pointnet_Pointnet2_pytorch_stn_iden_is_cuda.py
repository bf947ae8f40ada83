"""PointNet's spatial transformers add an identity matrix that they move to CUDA exactly when their input is on CUDA

source: https://github.com/yanx27/Pointnet_Pointnet2_pytorch/blob/eb64fe0b4c24055559cea26299cb485dcb43d8dd/models/pointnet_utils.py#L43
(and #L83, the same idiom in STNkd; the originals are also reported at models/pointnet_sem_seg.py#L25, `self.feat(x)`,
the call that reaches them from pointnet_sem_seg.py's `__main__`)
false-alarm: DG009 at line 45 and at line 71 (`x = x + iden` in STN3d and STNkd): `iden` is made on the CPU from a
NumPy array, and `if x.is_cuda: iden = iden.cuda()` moves it to the GPU exactly when `x` (the output of fc3) is
there. In pointnet_sem_seg.py's `__main__` (copied below) model and input are on the CPU, so both operands are
CPU tensors; in train_semseg.py (model, batches and class weights all `.cuda()`) both are on the current CUDA
device. The add never mixes devices. This reduction runs on the CPU (exit 0).
"""
# Reduction: the layers of STN3d/STNkd/PointNetEncoder/get_model are fewer and narrower; the identity-matrix
# idiom, the `x.is_cuda` guard and the CPU `__main__` of pointnet_sem_seg.py are kept as they are. (The original
# `__main__` feeds 3-channel points to the 9-channel model and stops at the first conv; here it feeds 9.)
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class STN3d(nn.Module):
    def __init__(self, channel):
        super(STN3d, self).__init__()
        self.conv1 = torch.nn.Conv1d(channel, 64, 1)
        self.conv2 = torch.nn.Conv1d(64, 128, 1)
        self.fc1 = nn.Linear(128, 64)
        self.fc3 = nn.Linear(64, 9)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)

    def forward(self, x):
        batchsize = x.size()[0]
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 128)
        x = F.relu(self.fc1(x))
        x = self.fc3(x)

        iden = Variable(torch.from_numpy(np.array([1, 0, 0, 0, 1, 0, 0, 0, 1]).astype(np.float32))).view(1, 9).repeat(
            batchsize, 1)
        if x.is_cuda:
            iden = iden.cuda()
        x = x + iden
        x = x.view(-1, 3, 3)
        return x


class STNkd(nn.Module):
    def __init__(self, k=64):
        super(STNkd, self).__init__()
        self.conv1 = torch.nn.Conv1d(k, 64, 1)
        self.fc1 = nn.Linear(64, 64)
        self.fc3 = nn.Linear(64, k * k)
        self.bn1 = nn.BatchNorm1d(64)
        self.k = k

    def forward(self, x):
        batchsize = x.size()[0]
        x = F.relu(self.bn1(self.conv1(x)))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 64)
        x = F.relu(self.fc1(x))
        x = self.fc3(x)

        iden = Variable(torch.from_numpy(np.eye(self.k).flatten().astype(np.float32))).view(1, self.k * self.k).repeat(
            batchsize, 1)
        if x.is_cuda:
            iden = iden.cuda()
        x = x + iden
        x = x.view(-1, self.k, self.k)
        return x


class PointNetEncoder(nn.Module):
    def __init__(self, global_feat=True, feature_transform=False, channel=3):
        super(PointNetEncoder, self).__init__()
        self.stn = STN3d(channel)
        self.conv1 = torch.nn.Conv1d(channel, 64, 1)
        self.conv2 = torch.nn.Conv1d(64, 128, 1)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.global_feat = global_feat
        self.feature_transform = feature_transform
        if self.feature_transform:
            self.fstn = STNkd(k=64)

    def forward(self, x):
        B, D, N = x.size()
        trans = self.stn(x)
        x = x.transpose(2, 1)
        if D > 3:
            feature = x[:, :, 3:]
            x = x[:, :, :3]
        x = torch.bmm(x, trans)
        if D > 3:
            x = torch.cat([x, feature], dim=2)
        x = x.transpose(2, 1)
        x = F.relu(self.bn1(self.conv1(x)))

        if self.feature_transform:
            trans_feat = self.fstn(x)
            x = x.transpose(2, 1)
            x = torch.bmm(x, trans_feat)
            x = x.transpose(2, 1)
        else:
            trans_feat = None

        pointfeat = x
        x = self.bn2(self.conv2(x))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 128)
        if self.global_feat:
            return x, trans, trans_feat
        x = x.view(-1, 128, 1).repeat(1, 1, N)
        return torch.cat([x, pointfeat], 1), trans, trans_feat


class get_model(nn.Module):
    def __init__(self, num_class):
        super(get_model, self).__init__()
        self.k = num_class
        self.feat = PointNetEncoder(global_feat=False, feature_transform=True, channel=9)
        self.conv1 = torch.nn.Conv1d(192, 64, 1)
        self.conv4 = torch.nn.Conv1d(64, self.k, 1)
        self.bn1 = nn.BatchNorm1d(64)

    def forward(self, x):
        batchsize = x.size()[0]
        n_pts = x.size()[2]
        x, trans, trans_feat = self.feat(x)
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.conv4(x)
        x = x.transpose(2, 1).contiguous()
        x = F.log_softmax(x.view(-1, self.k), dim=-1)
        x = x.view(batchsize, n_pts, self.k)
        return x, trans_feat


if __name__ == '__main__':
    model = get_model(13)
    xyz = torch.rand(12, 9, 2048)
    seg_pred, trans_feat = model(xyz)
    print(seg_pred.shape, trans_feat.shape)
