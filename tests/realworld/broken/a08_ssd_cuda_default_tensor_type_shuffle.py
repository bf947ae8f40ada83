"""SSD train.py: global torch.cuda.FloatTensor default, then DataLoader(shuffle=True)
source: https://github.com/amdegroot/ssd.pytorch/issues/578
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' at line 91 (when the sampler runs); on CPU: ok (the else branch runs set_default_tensor_type('torch.FloatTensor'): UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1)
root-cause: line 32
expect: DG003
"""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data


def str2bool(v):
    return v.lower() in ("yes", "true", "t", "1")


parser = argparse.ArgumentParser(description='Single Shot MultiBox Detector Training With Pytorch')
parser.add_argument('--batch_size', default=4, type=int, help='Batch size for training')
parser.add_argument('--num_workers', default=0, type=int, help='Number of workers used in dataloading')
parser.add_argument('--cuda', default=True, type=str2bool, help='Use CUDA to train model')
parser.add_argument('--lr', '--learning-rate', default=1e-3, type=float, help='initial learning rate')
parser.add_argument('--momentum', default=0.9, type=float, help='Momentum value for optim')
parser.add_argument('--weight_decay', default=5e-4, type=float, help='Weight decay for SGD')
parser.add_argument('--max_iter', default=3, type=int)
args = parser.parse_args()

if torch.cuda.is_available():
    if args.cuda:
        torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause
    if not args.cuda:
        print("WARNING: It looks like you have a CUDA device, but aren't " +
              "using CUDA.\nRun with --cuda for optimal training speed.")
        torch.set_default_tensor_type('torch.FloatTensor')
else:
    torch.set_default_tensor_type('torch.FloatTensor')


class VOCDetection(data.Dataset):
    def __init__(self, n=16):
        self.ids = list(range(n))

    def __getitem__(self, index):
        img = torch.rand(3, 60, 60)
        target = torch.tensor([[0.1, 0.1, 0.5, 0.5, float(index % 3)]])
        return img, target

    def __len__(self):
        return len(self.ids)


def detection_collate(batch):
    targets = []
    imgs = []
    for sample in batch:
        imgs.append(sample[0])
        targets.append(sample[1])
    return torch.stack(imgs, 0), targets


class SSD(nn.Module):
    def __init__(self, num_classes=3):
        super(SSD, self).__init__()
        self.vgg = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(inplace=True), nn.AdaptiveAvgPool2d(4))
        self.conf = nn.Linear(16 * 16, num_classes)
        self.loc = nn.Linear(16 * 16, 4)

    def forward(self, x):
        x = self.vgg(x).flatten(1)
        return self.loc(x), self.conf(x)


def train():
    dataset = VOCDetection()
    ssd_net = SSD()
    net = ssd_net
    if args.cuda and torch.cuda.is_available():
        net = net.cuda()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=args.momentum,
                          weight_decay=args.weight_decay)
    print('Loading the dataset...')
    data_loader = data.DataLoader(dataset, args.batch_size,  # root-cause-alt
                                  num_workers=args.num_workers,
                                  shuffle=True, collate_fn=detection_collate,
                                  pin_memory=True)
    batch_iterator = iter(data_loader)
    for iteration in range(args.max_iter):
        try:
            images, targets = next(batch_iterator)  # fails-here
        except StopIteration:
            batch_iterator = iter(data_loader)
            images, targets = next(batch_iterator)
        if args.cuda and torch.cuda.is_available():
            images = images.cuda()
            targets = [ann.cuda() for ann in targets]
        loc, conf = net(images)
        loss_l = nn.functional.smooth_l1_loss(loc, torch.stack([t[0, :4] for t in targets]))
        loss_c = nn.functional.cross_entropy(conf, torch.stack([t[0, 4] for t in targets]).long())
        loss = loss_l + loss_c
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print('iter ' + repr(iteration) + ' || Loss: %.4f ||' % (loss.item()))


if __name__ == '__main__':
    train()
