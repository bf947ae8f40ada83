"""Lane-detection row-anchor classification whose labels are still built as int32 NumPy arrays (Windows default int), converted with .long() inside the loss before NLLLoss
source: https://github.com/cfzd/Ultra-Fast-Lane-Detection/issues/127
reported-error: none (fixed version: labels cast to long)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

griding_num, num_lanes, num_row = 20, 4, 8


class LaneClsDataset(Dataset):
    def __init__(self, n=16, seed=0):
        rng = np.random.default_rng(seed)
        self.imgs = rng.random((n, 3, 36, 100)).astype(np.float32)
        self.labels = rng.integers(0, griding_num + 1, (n, num_row, num_lanes)).astype(np.int32)

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return torch.from_numpy(self.imgs[i]), torch.from_numpy(self.labels[i])


class SoftmaxFocalLoss(nn.Module):
    def __init__(self, gamma, ignore_lb=255):
        super().__init__()
        self.gamma = gamma
        self.nll = nn.NLLLoss(ignore_index=ignore_lb)

    def forward(self, logits, labels):
        factor = torch.pow(1.0 - F.softmax(logits, dim=1), self.gamma)
        log_score = factor * F.log_softmax(logits, dim=1)
        return self.nll(log_score, labels.long())


if __name__ == "__main__":
    net = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((4, 8)), nn.Flatten(),
                        nn.Linear(8 * 4 * 8, (griding_num + 1) * num_row * num_lanes))
    criterion = SoftmaxFocalLoss(2)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    for b_idx, (imgs, cls_label) in enumerate(DataLoader(LaneClsDataset(), batch_size=8, shuffle=True)):
        cls_out = net(imgs).view(-1, griding_num + 1, num_row, num_lanes)
        loss = criterion(cls_out, cls_label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {b_idx} loss {loss.item():.4f}")
