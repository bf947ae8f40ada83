"""Ultra-Fast-Lane-Detection style training on Windows: row-anchor class labels are built as an int32 NumPy array and reach the SoftmaxFocalLoss' nn.NLLLoss
source: https://github.com/cfzd/Ultra-Fast-Lane-Detection/issues/127
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' (from self.nll(log_score, labels) in utils/loss.py)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 61
root-cause: line 28
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

griding_num, num_lanes, num_row = 20, 4, 8


class LaneClsDataset(Dataset):
    def __init__(self, n=24, seed=0):
        rng = np.random.default_rng(seed)
        self.imgs = rng.random((n, 3, 36, 100)).astype(np.float32)
        self.points = rng.uniform(0, 100, size=(n, num_row, num_lanes))

    def __len__(self):
        return len(self.imgs)

    def _grid_pts(self, pts, num_cols=griding_num, w=100):
        col_sample = np.linspace(0, w - 1, num_cols)
        to_pts = np.zeros((num_row, num_lanes), dtype=np.int32)  # root-cause
        for i in range(num_lanes):
            pti = pts[:, i]
            to_pts[:, i] = np.asarray([int(pt // (col_sample[1] - col_sample[0])) if pt != -1 else num_cols for pt in pti])
        return to_pts

    def __getitem__(self, index):
        cls_label = self._grid_pts(self.points[index])
        return torch.from_numpy(self.imgs[index]), torch.from_numpy(cls_label)


class parsingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 8)))
        self.cls = nn.Linear(8 * 4 * 8, (griding_num + 1) * num_row * num_lanes)

    def forward(self, x):
        fea = self.model(x).flatten(1)
        return self.cls(fea).view(-1, griding_num + 1, num_row, num_lanes)


class SoftmaxFocalLoss(nn.Module):
    def __init__(self, gamma, ignore_lb=255):
        super(SoftmaxFocalLoss, self).__init__()
        self.gamma = gamma
        self.nll = nn.NLLLoss(ignore_index=ignore_lb)

    def forward(self, logits, labels):
        scores = F.softmax(logits, dim=1)
        factor = torch.pow(1.0 - scores, self.gamma)
        log_score = F.log_softmax(logits, dim=1)
        log_score = factor * log_score
        loss = self.nll(log_score, labels)  # fails-here
        return loss


def calc_loss(loss_dict, results):
    loss = 0
    for i in range(len(loss_dict["name"])):
        datas = [results[src] for src in loss_dict["data_src"][i]]
        loss_cur = loss_dict["op"][i](*datas)
        loss += loss_cur * loss_dict["weight"][i]
    return loss


def train(net, data_loader, loss_dict, optimizer, epoch):
    net.train()
    for b_idx, (imgs, cls_label) in enumerate(data_loader):
        cls_out = net(imgs)
        results = {"cls_out": cls_out, "cls_label": cls_label}
        loss = calc_loss(loss_dict, results)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} iter {b_idx} loss {loss.item():.4f}")


if __name__ == "__main__":
    net = parsingNet()
    train_loader = DataLoader(LaneClsDataset(), batch_size=8, shuffle=True)
    loss_dict = {"name": ["cls_loss"], "op": [SoftmaxFocalLoss(2)], "weight": [1.0], "data_src": [("cls_out", "cls_label")]}
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    train(net, train_loader, loss_dict, optimizer, 0)
