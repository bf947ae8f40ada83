"""The ssd.pytorch-style training of bk03 (amdegroot/ssd.pytorch #536) with the loss told where it runs: use_gpu defaults to torch.cuda.is_available() and the script passes the same flag, so on a CPU-only machine the matched targets stay on the CPU with the model, and on a GPU machine the model, priors, batches and targets all go to CUDA; the CPU-built torch.Tensor/torch.LongTensor target buffers moved by the guarded .cuda() calls are kept
source: https://github.com/amdegroot/ssd.pytorch/issues/536
reported-error: (none filed; the fixed situation of bk03)
outcome: ok
root-cause: -
expect: none
"""
from itertools import product
from math import sqrt

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
cfg = {'num_classes': 4, 'feature_maps': [8, 4], 'min_dim': 64, 'steps': [8, 16], 'min_sizes': [12, 30],
       'max_sizes': [30, 50], 'aspect_ratios': [[2], [2]], 'variance': [0.1, 0.2], 'clip': True}


def point_form(boxes):
    return torch.cat((boxes[:, :2] - boxes[:, 2:] / 2, boxes[:, :2] + boxes[:, 2:] / 2), 1)


def intersect(box_a, box_b):
    A, B = box_a.size(0), box_b.size(0)
    max_xy = torch.min(box_a[:, 2:].unsqueeze(1).expand(A, B, 2), box_b[:, 2:].unsqueeze(0).expand(A, B, 2))
    min_xy = torch.max(box_a[:, :2].unsqueeze(1).expand(A, B, 2), box_b[:, :2].unsqueeze(0).expand(A, B, 2))
    inter = torch.clamp((max_xy - min_xy), min=0)
    return inter[:, :, 0] * inter[:, :, 1]


def jaccard(box_a, box_b):
    inter = intersect(box_a, box_b)
    area_a = ((box_a[:, 2] - box_a[:, 0]) * (box_a[:, 3] - box_a[:, 1])).unsqueeze(1).expand_as(inter)
    area_b = ((box_b[:, 2] - box_b[:, 0]) * (box_b[:, 3] - box_b[:, 1])).unsqueeze(0).expand_as(inter)
    return inter / (area_a + area_b - inter)


def encode(matched, priors, variances):
    g_cxcy = (matched[:, :2] + matched[:, 2:]) / 2 - priors[:, :2]
    g_cxcy /= (variances[0] * priors[:, 2:])
    g_wh = (matched[:, 2:] - matched[:, :2]) / priors[:, 2:]
    g_wh = torch.log(g_wh) / variances[1]
    return torch.cat([g_cxcy, g_wh], 1)


def match(threshold, truths, priors, variances, labels, loc_t, conf_t, idx):
    overlaps = jaccard(truths, point_form(priors))
    best_prior_overlap, best_prior_idx = overlaps.max(1, keepdim=True)
    best_truth_overlap, best_truth_idx = overlaps.max(0, keepdim=True)
    best_truth_idx.squeeze_(0)
    best_truth_overlap.squeeze_(0)
    best_prior_idx.squeeze_(1)
    best_prior_overlap.squeeze_(1)
    best_truth_overlap.index_fill_(0, best_prior_idx, 2)
    for j in range(best_prior_idx.size(0)):
        best_truth_idx[best_prior_idx[j]] = j
    matches = truths[best_truth_idx]
    conf = labels[best_truth_idx] + 1
    conf[best_truth_overlap < threshold] = 0
    loc_t[idx] = encode(matches, priors, variances)
    conf_t[idx] = conf


def log_sum_exp(x):
    x_max = x.data.max()
    return torch.log(torch.sum(torch.exp(x - x_max), 1, keepdim=True)) + x_max


class PriorBox:
    def __init__(self, cfg):
        self.__dict__.update(cfg)
        self.image_size = cfg['min_dim']

    def forward(self):
        mean = []
        for k, f in enumerate(self.feature_maps):
            for i, j in product(range(f), repeat=2):
                f_k = self.image_size / self.steps[k]
                cx, cy = (j + 0.5) / f_k, (i + 0.5) / f_k
                s_k = self.min_sizes[k] / self.image_size
                mean += [cx, cy, s_k, s_k]
                s_k_prime = sqrt(s_k * (self.max_sizes[k] / self.image_size))
                mean += [cx, cy, s_k_prime, s_k_prime]
                for ar in self.aspect_ratios[k]:
                    mean += [cx, cy, s_k * sqrt(ar), s_k / sqrt(ar)]
                    mean += [cx, cy, s_k / sqrt(ar), s_k * sqrt(ar)]
        output = torch.Tensor(mean).view(-1, 4)
        return output.clamp_(max=1, min=0) if self.clip else output


class MultiBoxLoss(nn.Module):
    def __init__(self, num_classes, overlap_thresh, prior_for_matching,
                 bkg_label, neg_mining, neg_pos, neg_overlap, encode_target,
                 use_gpu=torch.cuda.is_available()):
        super(MultiBoxLoss, self).__init__()
        self.use_gpu = use_gpu
        self.num_classes = num_classes
        self.threshold = overlap_thresh
        self.background_label = bkg_label
        self.encode_target = encode_target
        self.use_prior_for_matching = prior_for_matching
        self.do_neg_mining = neg_mining
        self.negpos_ratio = neg_pos
        self.neg_overlap = neg_overlap
        self.variance = cfg['variance']

    def forward(self, predictions, targets):
        loc_data, conf_data, priors = predictions
        num = loc_data.size(0)
        priors = priors[:loc_data.size(1), :]
        num_priors = (priors.size(0))
        loc_t = torch.Tensor(num, num_priors, 4)
        conf_t = torch.LongTensor(num, num_priors)
        for idx in range(num):
            truths = targets[idx][:, :-1].data
            labels = targets[idx][:, -1].data
            match(self.threshold, truths, priors.data, self.variance, labels, loc_t, conf_t, idx)
        if self.use_gpu:
            loc_t = loc_t.cuda()
            conf_t = conf_t.cuda()
        pos = conf_t > 0
        pos_idx = pos.unsqueeze(pos.dim()).expand_as(loc_data)
        loc_p = loc_data[pos_idx].view(-1, 4)
        loc_t = loc_t[pos_idx].view(-1, 4)
        loss_l = F.smooth_l1_loss(loc_p, loc_t, reduction='sum')
        batch_conf = conf_data.view(-1, self.num_classes)
        loss_c = log_sum_exp(batch_conf) - batch_conf.gather(1, conf_t.view(-1, 1))
        loss_c[pos.view(-1, 1)] = 0
        loss_c = loss_c.view(num, -1)
        _, loss_idx = loss_c.sort(1, descending=True)
        _, idx_rank = loss_idx.sort(1)
        num_pos = pos.long().sum(1, keepdim=True)
        num_neg = torch.clamp(self.negpos_ratio * num_pos, max=pos.size(1) - 1)
        neg = idx_rank < num_neg.expand_as(idx_rank)
        pos_idx = pos.unsqueeze(2).expand_as(conf_data)
        neg_idx = neg.unsqueeze(2).expand_as(conf_data)
        conf_p = conf_data[(pos_idx + neg_idx).gt(0)].view(-1, self.num_classes)
        targets_weighted = conf_t[(pos + neg).gt(0)]
        loss_c = F.cross_entropy(conf_p, targets_weighted, reduction='sum')
        N = num_pos.data.sum()
        return loss_l / N, loss_c / N


class TinySSD(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                  nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.extra = nn.Sequential(nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.loc = nn.ModuleList([nn.Conv2d(32, 4 * 4, 3, 1, 1), nn.Conv2d(32, 4 * 4, 3, 1, 1)])
        self.conf = nn.ModuleList([nn.Conv2d(32, 4 * num_classes, 3, 1, 1), nn.Conv2d(32, 4 * num_classes, 3, 1, 1)])
        self.register_buffer('priors', PriorBox(cfg).forward())

    def forward(self, x):
        s1 = self.base(x)
        sources = [s1, self.extra(s1)]
        loc = torch.cat([l(s).permute(0, 2, 3, 1).reshape(x.size(0), -1) for s, l in zip(sources, self.loc)], 1)
        conf = torch.cat([c(s).permute(0, 2, 3, 1).reshape(x.size(0), -1) for s, c in zip(sources, self.conf)], 1)
        return loc.view(x.size(0), -1, 4), conf.view(x.size(0), -1, self.num_classes), self.priors


def make_batch(n):
    images, targets = torch.rand(n, 3, 64, 64), []
    for _ in range(n):
        xy = torch.rand(2, 2) * 0.5
        wh = 0.2 + torch.rand(2, 2) * 0.3
        label = torch.randint(0, cfg['num_classes'] - 1, (2, 1)).float()
        targets.append(torch.cat([xy, xy + wh, label], 1))
    return images, targets


use_cuda = torch.cuda.is_available()
device = torch.device('cuda' if use_cuda else 'cpu')
ssd_net = TinySSD(cfg['num_classes']).to(device)
optimizer = torch.optim.SGD(ssd_net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
criterion = MultiBoxLoss(cfg['num_classes'], 0.5, True, 0, True, 3, 0.5, False, use_cuda)
for iteration in range(10):
    images, targets = make_batch(4)
    images, targets = images.to(device), [t.to(device) for t in targets]
    out = ssd_net(images)
    optimizer.zero_grad()
    loss_l, loss_c = criterion(out, targets)
    loss = loss_l + loss_c
    loss.backward()
    optimizer.step()
    print(f"iter {iteration} || loc {loss_l.item():.4f} conf {loss_c.item():.4f}")
