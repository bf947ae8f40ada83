"""Ultra-Fast-Lane-Detection-style row-anchor classification: cls labels built as 32-bit ints (NumPy's default int on Windows) reach nll_loss through SoftmaxFocalLoss
source: https://github.com/cfzd/Ultra-Fast-Lane-Detection/issues/90
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss2d_forward
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 44
root-cause: line 29
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

cfg = dict(griding_num=20, num_lanes=4, row_anchor=list(range(64, 288, 14)), batch_size=8, learning_rate=1e-3, epoch=2)


class LaneClsDataset(Dataset):
    def __init__(self, n=32, griding_num=20, num_lanes=4, row_anchor=()):
        rng = np.random.default_rng(0)
        self.imgs = rng.normal(size=(n, 3, 36, 100)).astype(np.float32)
        # lane x-position per row anchor, already quantised to grid cells (griding_num == "no lane")
        self.lanes = rng.integers(0, griding_num + 1, size=(n, len(row_anchor), num_lanes))

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, idx):
        # the Windows default integer is 32-bit; written out so it reproduces on Linux too
        cls_label = np.array(self.lanes[idx], dtype=np.int32)  # root-cause
        return torch.from_numpy(self.imgs[idx]), torch.from_numpy(cls_label)


class SoftmaxFocalLoss(nn.Module):
    def __init__(self, gamma, ignore_lb=255):
        super().__init__()
        self.gamma = gamma
        self.nll = nn.NLLLoss(ignore_index=ignore_lb)

    def forward(self, logits, labels):
        scores = F.softmax(logits, dim=1)
        factor = torch.pow(1. - scores, self.gamma)
        log_score = F.log_softmax(logits, dim=1)
        log_score = factor * log_score
        return self.nll(log_score, labels)  # fails-here


class ParsingNet(nn.Module):
    def __init__(self, cls_dim):
        super().__init__()
        self.cls_dim = cls_dim
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 8)))
        self.cls = nn.Linear(16 * 4 * 8, int(np.prod(cls_dim)))

    def forward(self, x):
        return self.cls(self.backbone(x).flatten(1)).view(-1, *self.cls_dim)


if __name__ == "__main__":
    cls_dim = (cfg["griding_num"] + 1, len(cfg["row_anchor"]), cfg["num_lanes"])
    loader = DataLoader(LaneClsDataset(griding_num=cfg["griding_num"], num_lanes=cfg["num_lanes"], row_anchor=cfg["row_anchor"]),
                        batch_size=cfg["batch_size"], shuffle=True)
    net = ParsingNet(cls_dim)
    loss_op = SoftmaxFocalLoss(2)
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg["learning_rate"])
    for epoch in range(cfg["epoch"]):
        for img, cls_label in loader:
            loss_cur = loss_op(net(img), cls_label)
            optimizer.zero_grad()
            loss_cur.backward()
            optimizer.step()
        print("epoch", epoch, float(loss_cur))
