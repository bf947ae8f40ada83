"""The open-reid batch-hard triplet training of bo02 (Cysu/open-reid #24) with the fix of commit 1401347 that the reporter adopted: the hardest negative is dist[i][mask[i] == 0].min(), so the bool identity mask is compared, not subtracted; the bool mask indexing dist[i][mask[i]], the MarginRankingLoss target made with torch.ones_like and the float32 crops from torch.from_numpy are kept, and rank-1 on the training identities is checked
source: https://github.com/Cysu/open-reid/issues/24
reported-error: -
outcome: ok
root-cause: -
expect: none
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
            dist_an.append(dist[i][mask[i] == 0].min())
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
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
trainer = Trainer(model, criterion)
for epoch in range(8):
    trainer.train(epoch, train_loader, optimizer)

# rank-1 of every crop against the others (query != gallery item), as open-reid's evaluator would
model.eval()
with torch.no_grad():
    feats = model(torch.stack([torch.from_numpy(item[0]) for item in train_set.items]))
    pids = torch.tensor([item[2] for item in train_set.items])
    d = torch.cdist(feats, feats)
    d.fill_diagonal_(float("inf"))
    rank1 = (pids[d.argmin(1)] == pids).float().mean().item()
print("rank-1 on the training identities: {:.2%}".format(rank1))
assert rank1 > 0.2  # chance is about 5%
