"""Person re-identification with open-reid's batch-hard TripletLoss (re-typed: RandomIdentitySampler with num_instances=4, a small embedding CNN, Trainer._forward, TripletLoss feeding MarginRankingLoss): the positive/negative mask is targets.expand(n, n).eq(targets.expand(n, n).t()), a bool tensor, and the hardest negative is taken with dist[i][1 - mask[i]], which uses the mask as a number
source: https://github.com/Cysu/open-reid/issues/24
reported-error: with the old open-reid triplet loss "I only get 2.6% top1 accuracy ... the difference of hard-negative and hard-positive almost goes to zero"; the reporter fixed it by upgrading PyTorch to 0.2 and changing dist_an.append(dist[i][1-mask[i]].min()) to dist_an.append(dist[i][mask[i] == 0].min()) as the latest open-reid does (commit 1401347 "Fix for pytorch v0.2")
outcome: RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead. at line 98
root-cause: line 98
expect: DG004
"""
from collections import defaultdict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, Sampler

torch.manual_seed(0)
np.random.seed(0)


class Market1501Like(Dataset):
    """(img, fname, pid, camid) tuples like open-reid's Preprocessor, synthetic 3x32x16 'pedestrian' crops."""

    def __init__(self, num_ids=16, per_id=6):
        rng = np.random.default_rng(0)
        looks = rng.random((num_ids, 3, 32, 16)).astype(np.float32)
        self.items = []
        for pid in range(num_ids):
            for k in range(per_id):
                img = looks[pid] + 0.25 * rng.standard_normal((3, 32, 16)).astype(np.float32)
                self.items.append((img, "%04d_c%d_%02d.jpg" % (pid, k % 6, k), pid, k % 6))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        img, fname, pid, camid = self.items[index]
        return torch.from_numpy(img), fname, pid, camid


class RandomIdentitySampler(Sampler):
    def __init__(self, data_source, num_instances=1):
        self.data_source = data_source
        self.num_instances = num_instances
        self.index_dic = defaultdict(list)
        for index, (_, _, pid, _) in enumerate(data_source.items):
            self.index_dic[pid].append(index)
        self.pids = list(self.index_dic.keys())
        self.num_samples = len(self.pids)

    def __len__(self):
        return self.num_samples * self.num_instances

    def __iter__(self):
        indices = torch.randperm(self.num_samples)
        ret = []
        for i in indices:
            t = self.index_dic[self.pids[i]]
            replace = len(t) < self.num_instances
            ret.extend(np.random.choice(t, size=self.num_instances, replace=replace))
        return iter(ret)


class EmbeddingNet(nn.Module):
    """Stand-in for open-reid's ResNet-50 with num_features=1024 and an embedding FC of size `features`."""

    def __init__(self, num_features=64, features=32):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.feat = nn.Linear(32, num_features)
        self.feat_bn = nn.BatchNorm1d(num_features)
        self.classifier = nn.Linear(num_features, features)

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.base(x), 1).flatten(1)
        x = F.relu(self.feat_bn(self.feat(x)))
        return self.classifier(x)


class TripletLoss(nn.Module):
    def __init__(self, margin=0):
        super().__init__()
        self.margin = margin
        self.ranking_loss = nn.MarginRankingLoss(margin=margin)

    def forward(self, inputs, targets):
        n = inputs.size(0)
        # Compute pairwise distance, replace by the official when merged
        dist = torch.pow(inputs, 2).sum(dim=1, keepdim=True).expand(n, n)
        dist = dist + dist.t()
        dist = dist.addmm(inputs, inputs.t(), beta=1, alpha=-2)
        dist = dist.clamp(min=1e-12).sqrt()  # for numerical stability
        # For each anchor, find the hardest positive and negative
        mask = targets.expand(n, n).eq(targets.expand(n, n).t())
        dist_ap, dist_an = [], []
        for i in range(n):
            dist_ap.append(dist[i][mask[i]].max())
            dist_an.append(dist[i][1 - mask[i]].min())  # root-cause  # fails-here
        dist_ap = torch.stack(dist_ap)
        dist_an = torch.stack(dist_an)
        # Compute ranking hinge loss
        y = torch.ones_like(dist_an)
        loss = self.ranking_loss(dist_an, dist_ap, y)
        prec = (dist_an.data > dist_ap.data).sum().item() * 1.0 / y.size(0)
        return loss, prec


class Trainer:
    def __init__(self, model, criterion):
        self.model, self.criterion = model, criterion

    def train(self, epoch, data_loader, optimizer, print_freq=2):
        self.model.train()
        for i, inputs in enumerate(data_loader):
            imgs, _, pids, _ = inputs
            loss, prec = self._forward([imgs], pids)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if (i + 1) % print_freq == 0:
                print("Epoch: [{}][{}/{}]\tLoss {:.3f}\tPrec {:.2%}".format(epoch, i + 1, len(data_loader), loss.item(), prec))

    def _forward(self, inputs, targets):
        outputs = self.model(*inputs)
        return self.criterion(outputs, targets)


batch_size, num_instances = 32, 4
train_set = Market1501Like()
train_loader = DataLoader(train_set, batch_size=batch_size, sampler=RandomIdentitySampler(train_set, num_instances))
model = EmbeddingNet()
criterion = TripletLoss(margin=0.5)
optimizer = torch.optim.Adam(model.parameters(), lr=2e-4)
trainer = Trainer(model, criterion)
for epoch in range(3):
    trainer.train(epoch, train_loader, optimizer)
