"""ImageNet classification with the PyTorch examples training script (pytorch/examples: imagenet/main.py's main_worker, train, validate and accuracy, run as `python main.py --dummy -a resnet18 --gpu 0` on one GPU), the state fixed by pull request #1073: with --gpu given, train() moves the images to that GPU but its elif chain never moves the target, so CrossEntropyLoss gets CUDA logits and a CPU target at the first step (validate() moves both)
source: https://github.com/pytorch/examples/pull/1073
reported-error: "Fix device mismatch issue in #1071": image and model are in GPU but target is still in CPU; the pull request passes the device to train() and moves both images and target with .to(device)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument target in method wrapper_CUDA_nll_loss_forward) (not run on a GPU for this set) at line 155; on CPU: ok
root-cause: line 146
expect: DG009
"""
import argparse
import time
import types
from enum import Enum

import torch
import torch.backends.cudnn as cudnn
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data
from torch.optim.lr_scheduler import StepLR


# ---- torchvision.models / datasets (not installed here; re-typed: a small ResNet-style net and FakeData)
class BasicBlock(nn.Module):
    def __init__(self, c_in, c_out, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out)
        self.down = None if stride == 1 and c_in == c_out else nn.Sequential(
            nn.Conv2d(c_in, c_out, 1, stride, bias=False), nn.BatchNorm2d(c_out))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + (x if self.down is None else self.down(x)))


def resnet18(num_classes=1000):
    return nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                         BasicBlock(16, 16), BasicBlock(16, 32, 2), BasicBlock(32, 64, 2),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, num_classes))


models = types.SimpleNamespace(resnet18=resnet18)


class FakeData(torch.utils.data.Dataset):
    def __init__(self, size, image_size, num_classes):
        self.size, self.image_size, self.num_classes = size, image_size, num_classes

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        g = torch.Generator().manual_seed(index)
        return torch.rand(self.image_size, generator=g), int(torch.randint(0, self.num_classes, (1,), generator=g))


# ---- imagenet/main.py
parser = argparse.ArgumentParser(description='PyTorch ImageNet Training')
parser.add_argument('data', metavar='DIR', nargs='?', default='imagenet')
parser.add_argument('-a', '--arch', metavar='ARCH', default='resnet18')
parser.add_argument('-j', '--workers', default=4, type=int)
parser.add_argument('--epochs', default=90, type=int)
parser.add_argument('--start-epoch', default=0, type=int)
parser.add_argument('-b', '--batch-size', default=256, type=int)
parser.add_argument('--lr', '--learning-rate', default=0.1, type=float, dest='lr')
parser.add_argument('--momentum', default=0.9, type=float)
parser.add_argument('--wd', '--weight-decay', default=1e-4, type=float, dest='weight_decay')
parser.add_argument('-p', '--print-freq', default=10, type=int)
parser.add_argument('--gpu', default=None, type=int, help='GPU id to use.')
parser.add_argument('--dummy', action='store_true', help="use fake data to benchmark")

best_acc1 = 0


def main(argv=None):
    args = parser.parse_args(argv)
    args.distributed = False
    main_worker(args.gpu, 1, args)


def main_worker(gpu, ngpus_per_node, args):
    global best_acc1
    args.gpu = gpu

    if args.gpu is not None:
        print("Use GPU: {} for training".format(args.gpu))

    print("=> creating model '{}'".format(args.arch))
    model = models.__dict__[args.arch]()

    if not torch.cuda.is_available() and not torch.backends.mps.is_available():
        print('using CPU, this will be slow')
    elif args.gpu is not None and torch.cuda.is_available():
        torch.cuda.set_device(args.gpu)
        model = model.cuda(args.gpu)
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
        model = model.to(device)
    else:
        model = torch.nn.DataParallel(model).cuda()

    if torch.cuda.is_available():
        if args.gpu:
            device = torch.device('cuda:{}'.format(args.gpu))
        else:
            device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    # define loss function (criterion), optimizer, and learning rate scheduler
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), args.lr, momentum=args.momentum, weight_decay=args.weight_decay)
    scheduler = StepLR(optimizer, step_size=30, gamma=0.1)

    cudnn.benchmark = True

    if args.dummy:
        print("=> Dummy data is used!")
        train_dataset = FakeData(64, (3, 32, 32), 10)
        val_dataset = FakeData(32, (3, 32, 32), 10)

    train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=args.batch_size, shuffle=True,
                                               num_workers=args.workers, pin_memory=True)
    val_loader = torch.utils.data.DataLoader(val_dataset, batch_size=args.batch_size, shuffle=False,
                                             num_workers=args.workers, pin_memory=True)

    for epoch in range(args.start_epoch, args.epochs):
        train(train_loader, model, criterion, optimizer, epoch, args)
        acc1 = validate(val_loader, model, criterion, args)
        scheduler.step()
        best_acc1 = max(acc1, best_acc1)
    print(f"best Acc@1 {float(best_acc1):.2f}")


def train(train_loader, model, criterion, optimizer, epoch, args):
    losses = AverageMeter('Loss', ':.4e')
    top1 = AverageMeter('Acc@1', ':6.2f')
    model.train()

    end = time.time()
    for i, (images, target) in enumerate(train_loader):
        if args.gpu is not None and torch.cuda.is_available():
            images = images.cuda(args.gpu, non_blocking=True)  # root-cause
        elif not args.gpu and torch.cuda.is_available():
            target = target.cuda(args.gpu, non_blocking=True)
        elif torch.backends.mps.is_available():
            images = images.to('mps')
            target = target.to('mps')

        # compute output
        output = model(images)
        loss = criterion(output, target)  # fails-here

        # measure accuracy and record loss
        acc1, acc5 = accuracy(output, target, topk=(1, 5))
        losses.update(loss.item(), images.size(0))
        top1.update(acc1[0], images.size(0))

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        end = time.time()
        if i % args.print_freq == 0:
            print(f"Epoch: [{epoch}][{i + 1}/{len(train_loader)}] {losses} {top1}")


def validate(val_loader, model, criterion, args):
    top1 = AverageMeter('Acc@1', ':6.2f')
    model.eval()
    with torch.no_grad():
        for i, (images, target) in enumerate(val_loader):
            if args.gpu is not None and torch.cuda.is_available():
                images = images.cuda(args.gpu, non_blocking=True)
            if torch.backends.mps.is_available():
                images = images.to('mps')
                target = target.to('mps')
            if torch.cuda.is_available():
                target = target.cuda(args.gpu, non_blocking=True)
            output = model(images)
            loss = criterion(output, target)
            acc1, acc5 = accuracy(output, target, topk=(1, 5))
            top1.update(acc1[0], images.size(0))
    print(f' * Acc@1 {top1.avg:.3f}')
    return top1.avg


class Summary(Enum):
    NONE = 0
    AVERAGE = 1


class AverageMeter(object):
    def __init__(self, name, fmt=':f', summary_type=Summary.AVERAGE):
        self.name = name
        self.fmt = fmt
        self.summary_type = summary_type
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self):
        fmtstr = '{name} {val' + self.fmt + '} ({avg' + self.fmt + '})'
        return fmtstr.format(**self.__dict__)


def accuracy(output, target, topk=(1,)):
    """Computes the accuracy over the k top predictions for the specified values of k"""
    with torch.no_grad():
        maxk = max(topk)
        batch_size = target.size(0)
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target.view(1, -1).expand_as(pred))
        res = []
        for k in topk:
            correct_k = correct[:k].reshape(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / batch_size))
        return res


if __name__ == '__main__':
    torch.manual_seed(0)
    # python main.py --dummy -a resnet18 --gpu 0 (a single-GPU workstation); small sizes for this set
    main(["--dummy", "-a", "resnet18", "--gpu", "0", "--epochs", "2", "-b", "16", "-j", "0", "--lr", "0.05"])
