"""PytorchSSD train_test_fssd_mobile_pre.py: targets `.cuda()` under `if args.cuda:` after `net.cuda()` under the same flag

source: https://github.com/lzx1413/PytorchSSD/blob/master/train_test_fssd_mobile_pre.py
false-alarm: DG009 at `anno.cuda()`: the `.cuda()` runs only under `if args.cuda:`, and under the same flag the
model was already moved with `net.cuda()`, which raises first on a CPU-only machine (`--cuda` is `type=bool`, so
only `--cuda ''` turns it off, and then the CPU branch runs). The priors the targets meet in `jaccard`'s `+` are on
CUDA whenever CUDA is available (a global CUDA default tensor type, here `torch.set_default_device('cuda')` to keep the
reduction free of the true DG002), and the targets are then on CUDA too (scan 44).
Like the original, this needs a GPU to get past `net.cuda()` with the default flag.
"""
import argparse

import torch
import torch.nn as nn
from torch.autograd import Variable

if torch.cuda.is_available():
    torch.set_default_device('cuda')

parser = argparse.ArgumentParser()
parser.add_argument('--cuda', default=True, type=bool, help='Use cuda to train model')
args = parser.parse_args()


def jaccard(box_a, box_b):
    area_a = ((box_a[:, 2] - box_a[:, 0]) * (box_a[:, 3] - box_a[:, 1])).unsqueeze(1)
    area_b = ((box_b[:, 2] - box_b[:, 0]) * (box_b[:, 3] - box_b[:, 1])).unsqueeze(0)
    return area_a + area_b


class PriorBox(object):
    def forward(self):
        mean = [0.1, 0.1, 0.5, 0.5, 0.3, 0.3, 0.9, 0.9]
        return torch.tensor(mean).view(-1, 4)


net = nn.Linear(4, 4)
if args.cuda:
    net.cuda()
priors = Variable(PriorBox().forward(), volatile=True)
images, targets = torch.randn(2, 4).cpu(), [torch.rand(3, 5).cpu() for _ in range(2)]
if args.cuda:
    images = Variable(images.cuda())
    targets = [Variable(anno.cuda(), volatile=True) for anno in targets]
else:
    images = Variable(images)
    targets = [Variable(anno, volatile=True) for anno in targets]
out = net(images)
for t in targets:
    print(jaccard(t[:, :-1].data, priors.data).shape, out.shape)
