"""EDSR super-resolution with --precision half: the whole model is converted with .half() and trained with Adam at epsilon=1e-8, which is 0 in float16; the loss turns inf/nan after the first step and batches get skipped
source: https://github.com/sanghyun-son/EDSR-PyTorch/issues/36
reported-error: silent: "Skip this batch 2! (Loss: inf)" for every batch after the first when training with --precision half
outcome: ok (silent: loss after the first optimizer.step at line 67 is nan and every later batch is skipped; the weights are nan)
root-cause: line 52
expect: DG012
"""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim

parser = argparse.ArgumentParser(description='EDSR and MDSR')
parser.add_argument('--precision', type=str, default='half', choices=('single', 'half'))
parser.add_argument('--lr', type=float, default=1e-4)
parser.add_argument('--epsilon', type=float, default=1e-8, help='ADAM epsilon for numerical stability')
parser.add_argument('--n_resblocks', type=int, default=4)
parser.add_argument('--n_feats', type=int, default=16)
parser.add_argument('--skip_threshold', type=float, default=1e8)
args = parser.parse_args()


class ResBlock(nn.Module):
    def __init__(self, n_feats, res_scale=1.0):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(n_feats, n_feats, 3, padding=1), nn.ReLU(True),
                                  nn.Conv2d(n_feats, n_feats, 3, padding=1))
        self.res_scale = res_scale

    def forward(self, x):
        return x + self.body(x) * self.res_scale


class EDSR(nn.Module):
    def __init__(self, args, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, args.n_feats, 3, padding=1)
        self.body = nn.Sequential(*[ResBlock(args.n_feats) for _ in range(args.n_resblocks)])
        self.tail = nn.Sequential(nn.Conv2d(args.n_feats, args.n_feats * scale * scale, 3, padding=1),
                                  nn.PixelShuffle(scale), nn.Conv2d(args.n_feats, 3, 3, padding=1))

    def forward(self, x):
        x = self.head(x)
        return self.tail(self.body(x) + x)


model = EDSR(args)
if args.precision == 'half':
    model.half()  # root-cause-alt

optimizer = optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.999), eps=args.epsilon)  # root-cause
loss_fn = nn.L1Loss()

error_last = 1e8
torch.manual_seed(0)
for batch in range(8):
    hr = torch.rand(4, 3, 32, 32)
    lr = nn.functional.avg_pool2d(hr, 2)
    if args.precision == 'half':
        lr, hr = lr.half(), hr.half()
    optimizer.zero_grad()
    sr = model(lr)
    loss = loss_fn(sr, hr)
    if loss.item() < args.skip_threshold * error_last:
        loss.backward()
        optimizer.step()  # fails-here
        error_last = loss.item()
    else:
        print('Skip this batch {}! (Loss: {})'.format(batch + 1, loss.item()))
    print('[batch {}] loss {:.4f}'.format(batch + 1, loss.item()))
