"""A NeuralBabyTalk-style captioner (re-typed: the DataLoader's fine-grained GloVe table and detection-to-fine-grained mask, main.py's opt set-up, AttModel's CascadeCore) is built for training: the fine-grained mask, torch.from_numpy(dataset.fg_mask).byte(), is wrapped in nn.Parameter like the GloVe table next to it, and nn.Parameter refuses a uint8 tensor with requires_grad=True before CascadeCore's next line could switch gradients off
source: https://github.com/jiasenlu/NeuralBabyTalk/issues/26
reported-error: python main.py --path_opt cfgs/normal_flickr_res101.yml ... File "misc/AttModel.py", line 246, in __init__: self.fg_mask = Parameter(opt.fg_mask) ... RuntimeError: Only Tensors of floating point dtype can require gradients (workaround Parameter(opt.fg_mask.float()) "will cause error later"; suggested fix Parameter(opt.fg_mask, requires_grad=False))
outcome: RuntimeError: Only Tensors of floating point and complex dtype can require gradients at line 47
root-cause: line 47
expect: DG004
"""
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import Parameter

torch.manual_seed(0)
rng = np.random.default_rng(0)


class DataLoader:
    """The parts of misc/dataloader_flickr30k.py the model needs: detection classes, fine-grained words, GloVe."""

    def __init__(self, n_detect=8, n_fg=12):
        self.detect_size, self.fg_size = n_detect, n_fg
        self.glove_fg = rng.normal(0, 0.3, (n_fg + 1, 300))  # float64, as np.load gives it
        # fg_mask[d, f] = 1 where fine-grained word f is NOT a refinement of detection class d (row 0: background)
        fg_of_det = {d: [f for f in range(1, n_fg + 1) if f % n_detect == d % n_detect] for d in range(n_detect + 1)}
        self.fg_mask = np.ones((n_detect + 1, n_fg + 1), dtype=np.int64)
        for d, fs in fg_of_det.items():
            self.fg_mask[d, fs] = 0
        self.fg_mask[:, 0] = 0
        self.fg_of_det = fg_of_det


class CascadeCore(nn.Module):
    def __init__(self, opt):
        super(CascadeCore, self).__init__()
        self.rnn_size, self.fg_size, self.beta = opt.rnn_size, opt.fg_size, opt.beta
        self.bn_fc = nn.Sequential(nn.Linear(2 * opt.rnn_size, opt.rnn_size), nn.ReLU(), nn.Dropout(opt.drop_prob_lm),
                                   nn.Linear(opt.rnn_size, 2))
        self.fg_fc = nn.Sequential(nn.Linear(2 * opt.rnn_size, opt.rnn_size), nn.ReLU(), nn.Dropout(opt.drop_prob_lm),
                                   nn.Linear(opt.rnn_size, 300))
        # initialize the fine-grained glove embedding.
        self.fg_emb = Parameter(opt.glove_fg)
        self.fg_emb.requires_grad = False
        # setting the fg mask for the cascadeCore.
        self.fg_mask = Parameter(opt.fg_mask)  # root-cause  # fails-here
        self.fg_mask.requires_grad = False
        self.min_value = -1e8

    def forward(self, fg_idx, pool_feats, rnn_outs, roi_labels, seq_batch_size, seq_cnt):
        roi_num = pool_feats.size(1)
        pool_feats = pool_feats.view(seq_batch_size, 1, roi_num, self.rnn_size) * \
            roi_labels.view(seq_batch_size, seq_cnt, roi_num, 1)
        pool_cnt = roi_labels.sum(2)
        pool_cnt[pool_cnt == 0] = 1
        pool_feats = pool_feats.sum(2) / pool_cnt.view(seq_batch_size, seq_cnt, 1)
        pool_feats = torch.cat((rnn_outs, pool_feats), 2)
        bn_logprob = F.log_softmax(self.bn_fc(pool_feats), dim=2)
        fg_out = self.fg_fc(pool_feats)
        fg_score = torch.mm(fg_out.view(-1, 300), self.fg_emb.t()).view(seq_batch_size, -1, self.fg_size + 1)
        fg_mask = self.fg_mask[fg_idx]
        fg_score.masked_fill_(fg_mask.view_as(fg_score), self.min_value)
        fg_logprob = F.log_softmax(self.beta * fg_score, dim=2)
        return bn_logprob, fg_logprob


dataset = DataLoader()
opt = SimpleNamespace(rnn_size=32, drop_prob_lm=0.1, beta=1.0)
opt.detect_size = dataset.detect_size
opt.fg_size = dataset.fg_size
opt.fg_mask = torch.from_numpy(dataset.fg_mask).byte()  # root-cause-alt
opt.glove_fg = torch.from_numpy(dataset.glove_fg).float()

core = CascadeCore(opt)
optimizer = torch.optim.Adam([p for p in core.parameters() if p.requires_grad], lr=3e-3)

B, T, R = 6, 5, 4
for it in range(60):
    det = torch.from_numpy(rng.integers(1, opt.detect_size + 1, (B, T))).long()  # detection class per word slot
    target = torch.tensor([[rng.choice(dataset.fg_of_det[int(d)]) for d in row] for row in det.tolist()])
    rnn_outs = torch.randn(B, T, opt.rnn_size) + F.one_hot(det, opt.rnn_size).float()
    pool_feats = torch.randn(B, R, opt.rnn_size)
    roi_labels = (torch.rand(B, T, R) > 0.5).float()
    bn_logprob, fg_logprob = core(det.view(-1), pool_feats, rnn_outs, roi_labels, B, T)
    loss = F.nll_loss(fg_logprob.view(-1, opt.fg_size + 1), target.view(-1)) + F.nll_loss(
        bn_logprob.view(-1, 2), torch.ones(B * T, dtype=torch.long))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if it % 20 == 0:
        print(f"iter {it}: loss {loss.item():.3f}")
print(f"final loss {loss.item():.3f}")
