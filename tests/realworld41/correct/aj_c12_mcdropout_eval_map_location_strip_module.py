"""CIFAR-10 ResNet-18 with Monte Carlo dropout for uncertainty estimation (mattiasegu/uncertainty_estimation_deep_learning as in aj12: the checkpoint is written on the GPU machine from a DataParallel model) with eval.py as the "CPU version bugfix" pull request #4 left it: torch.load(ckpt_path, map_location=torch.device(device)) and, on the CPU, the 'module.' prefix of the DataParallel keys stripped before load_state_dict
source: https://github.com/mattiasegu/uncertainty_estimation_deep_learning/issues/5
reported-error: (none filed; the fixed situation of aj12, the two one-liners of the reporter's pull request #4)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import contextlib
import os
import tempfile
import time

import numpy as np

import torch
import torch.backends.cudnn as cudnn
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, Dataset


# ---- models/resnet_dropout.py
class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1, p=0.2):
        super(BasicBlock, self).__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != self.expansion * planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, self.expansion * planes, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(self.expansion * planes))
        self.dropout = nn.Dropout2d(p)

    def forward(self, x):
        out = self.dropout(F.relu(self.bn1(self.conv1(x))))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        out = self.dropout(F.relu(out))
        return out


class ResNetDropout(nn.Module):
    def __init__(self, block, num_blocks, num_classes=10, p=0.2):
        super(ResNetDropout, self).__init__()
        self.in_planes = 64
        self.conv1 = nn.Conv2d(3, 64, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.layer1 = self._make_layer(block, 64, num_blocks[0], stride=1, p=p)
        self.layer2 = self._make_layer(block, 128, num_blocks[1], stride=2, p=p)
        self.layer3 = self._make_layer(block, 256, num_blocks[2], stride=2, p=p)
        self.layer4 = self._make_layer(block, 512, num_blocks[3], stride=2, p=p)
        self.linear = nn.Linear(512 * block.expansion, num_classes)
        self.dropout = nn.Dropout2d(p)

    def _make_layer(self, block, planes, num_blocks, stride, p=0.2):
        strides = [stride] + [1] * (num_blocks - 1)
        layers = []
        for stride in strides:
            layers.append(block(self.in_planes, planes, stride, p=p))
            self.in_planes = planes * block.expansion
        return nn.Sequential(*layers)

    def forward(self, x):
        out = self.dropout(F.relu(self.bn1(self.conv1(x))))
        out = self.layer4(self.layer3(self.layer2(self.layer1(out))))
        out = F.avg_pool2d(out, 4)
        out = out.view(out.size(0), -1)
        return self.linear(out)


def ResNet18Dropout(p=0.2):
    return ResNetDropout(BasicBlock, [2, 2, 2, 2], p=p)


# ---- torchvision.datasets.CIFAR10 + transforms (re-typed: a small synthetic CIFAR-shaped set in memory)
class CIFAR10Like(Dataset):
    mean = np.array([0.4914, 0.4822, 0.4465], dtype=np.float32)
    std = np.array([0.2023, 0.1994, 0.2010], dtype=np.float32)

    def __init__(self, train=True, n=16, seed=0):
        rng = np.random.default_rng(seed + (0 if train else 1))
        self.targets = rng.integers(0, 10, n)
        self.data = rng.integers(0, 255, (n, 32, 32, 3)).astype(np.uint8)
        for i, t in enumerate(self.targets):
            self.data[i, :, :, t % 3] = np.clip(self.data[i, :, :, t % 3] + 25 * t, 0, 255)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, index):
        img = self.data[index].astype(np.float32) / 255.  # transforms.ToTensor()
        img = (img - self.mean) / self.std  # transforms.Normalize(...)
        return torch.from_numpy(img.transpose(2, 0, 1).copy()), int(self.targets[index])


def model_loader(name, args):
    model = {"resnet18_dropout": ResNet18Dropout}
    params = {"resnet18_dropout": [args.p]}
    return model[name.lower()](*params[name.lower()])


# ---- train.py (run on the GPU machine)
def train_main(argv, workdir):
    parser = argparse.ArgumentParser(description="PyTorch CIFAR10 Training")
    parser.add_argument("--p", default=0.2, type=float, help="dropout rate")
    parser.add_argument("--model_name", default="resnet18_dropout", type=str)
    parser.add_argument("--lr", default=0.1, type=float)
    parser.add_argument("--num_epochs", default=350, type=int)
    parser.add_argument("--batch_size", default=128, type=int)
    parser.add_argument("--data_parallel", action="store_true",
                        help="what `if device == 'cuda': net = torch.nn.DataParallel(net)` does on the GPU machine")
    args = parser.parse_args(argv)
    device = "cuda" if torch.cuda.is_available() else "cpu"

    trainloader = DataLoader(CIFAR10Like(train=True), batch_size=args.batch_size, shuffle=True)
    testloader = DataLoader(CIFAR10Like(train=False), batch_size=100, shuffle=False)
    net = model_loader(args.model_name, args).to(device)
    if device == "cuda" or args.data_parallel:
        net = torch.nn.DataParallel(net)
        cudnn.benchmark = True
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)

    best_acc = 0
    for epoch in range(args.num_epochs):
        net.train()
        for inputs, targets in trainloader:
            inputs, targets = inputs.to(device), targets.to(device)
            optimizer.zero_grad()
            loss = criterion(net(inputs), targets)
            loss.backward()
            optimizer.step()
        net.eval()
        correct = total = 0
        with torch.no_grad():
            for inputs, targets in testloader:
                outputs = net(inputs.to(device))
                correct += outputs.max(1)[1].eq(targets.to(device)).sum().item()
                total += targets.size(0)
        acc = 100. * correct / total
        print("Epoch {}: loss {:.3f} test acc {:.1f}".format(epoch, loss.item(), acc))
        if acc >= best_acc:
            print("Saving..")
            state = {"net": net.state_dict(), "acc": acc, "epoch": epoch}
            os.makedirs(os.path.join(workdir, "checkpoint"), exist_ok=True)
            torch.save(state, os.path.join(workdir, "checkpoint", "ckpt_{}.pth".format(args.model_name)))
            best_acc = acc


# ---- eval.py (run on the CPU machine)
def set_training_mode_for_dropout(net, training=True):
    for m in net.modules():
        if m.__class__.__name__.startswith("Dropout"):
            if training:
                m.train()
            else:
                m.eval()
    return net


def one_hot_pred_from_label(y_pred, labels):
    y_true = torch.zeros_like(y_pred)
    ones = torch.ones_like(y_pred)
    indexes = [l for l in labels]
    y_true[torch.arange(labels.size(0)), indexes] = ones[torch.arange(labels.size(0)), indexes]
    return y_true


def compute_log_likelihood(y_pred, y_true, sigma):
    dist = torch.distributions.normal.Normal(loc=y_pred, scale=sigma)
    return torch.mean(dist.log_prob(y_true), dim=1)


def compute_brier_score(y_pred, y_true):
    return torch.mean((y_true - y_pred) ** 2, 1)


def compute_preds(net, inputs, args, use_mcdo=False):
    model_variance = None
    softmax = nn.Softmax(dim=1)
    net.eval()
    if use_mcdo:
        net = set_training_mode_for_dropout(net, True)
        outputs = [net(inputs) for i in range(args.num_samples)]
        outputs_mean = torch.stack([softmax(outs) for outs in outputs])
        model_variance = torch.var(outputs_mean, dim=0)
        outputs_mean = torch.mean(outputs_mean, dim=0)
    else:
        outputs_mean = softmax(net(inputs))
    net = set_training_mode_for_dropout(net, False)
    return outputs_mean, model_variance


def evaluate(net, testloader, criterion, args, device, use_mcdo=False):
    net.eval()
    correct = total = 0
    brier_score = neg_log_likelihood = 0
    with torch.no_grad():
        for inputs, targets in testloader:
            inputs, targets = inputs.to(device), targets.to(device)
            outputs_mean, model_variance = compute_preds(net, inputs, args, use_mcdo)
            one_hot_targets = one_hot_pred_from_label(outputs_mean, targets)
            if model_variance is not None:
                batch_ll = compute_log_likelihood(outputs_mean, one_hot_targets, model_variance + args.tau)
                neg_log_likelihood += torch.sum(-batch_ll, 0).cpu().numpy().item()
            brier_score += torch.sum(compute_brier_score(outputs_mean, one_hot_targets), 0).cpu().numpy().item()
            _, predicted = outputs_mean.max(1)
            total += targets.size(0)
            correct += predicted.eq(targets).sum().item()
    return 100. * correct / total, brier_score / total, neg_log_likelihood / total


def eval_main(argv, workdir):
    parser = argparse.ArgumentParser(description="PyTorch CIFAR10 Training")
    parser.add_argument("--p", default=0.2, type=float, help="dropout rate")
    parser.add_argument("--num_samples", default=10, type=int)
    parser.add_argument("--tau", default=1e-4, type=float)
    parser.add_argument("--load_model_name", default="resnet18_dropout", type=str)
    parser.add_argument("--test_model_name", default="resnet18_dropout", type=str)
    parser.add_argument("--resume", "-r", action="store_true", default=True)
    parser.add_argument("--use_mcdo", "-m", action="store_true", default=False)
    args = parser.parse_args(argv)

    device = "cuda" if torch.cuda.is_available() else "cpu"
    best_acc = 0
    start_epoch = 0
    testloader = DataLoader(CIFAR10Like(train=False), batch_size=100, shuffle=False)

    net = model_loader(args.test_model_name, args).to(device)
    criterion = nn.CrossEntropyLoss()
    if device == "cuda":
        net = torch.nn.DataParallel(net)
        cudnn.benchmark = True

    if args.resume:
        print("==> Resuming from checkpoint..")
        assert os.path.isdir(os.path.join(workdir, "checkpoint")), "Error: no checkpoint directory found!"
        model_to_load = args.load_model_name.lower()
        ckpt_path = os.path.join(workdir, "checkpoint", "ckpt_{}.pth".format(model_to_load))
        checkpoint = torch.load(ckpt_path, map_location=torch.device(device))
        print("Loaded checkpoint at location {}".format(ckpt_path))

        # Preliminary bugfix for CPU execution
        state_dict = checkpoint["net"]
        if device == "cpu":
            from collections import OrderedDict
            new_state_dict = OrderedDict()
            for k, v in state_dict.items():
                name = k[7:]  # remove 'module.' of dataparallel
                new_state_dict[name] = v
            state_dict = new_state_dict
        net.load_state_dict(state_dict)
        best_acc = checkpoint["acc"]
        start_epoch = checkpoint["epoch"]

    print("==> Loaded model statistics: @epoch = {}, best_acc = {}".format(start_epoch, best_acc))
    eval_time = time.time()
    accuracy, brier_score, neg_log_likelihood = evaluate(net, testloader, criterion, args, device, args.use_mcdo)
    print("Accuracy                = {}".format(accuracy))
    print("Brier Score             = {}".format(brier_score))
    print("Negative log-likelihood = {}".format(neg_log_likelihood))
    print("Time                    = {}".format(time.time() - eval_time))


@contextlib.contextmanager
def storages_tagged_as_cuda():
    """What torch.save writes on the GPU machine: every storage tagged 'cuda:0'."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


if __name__ == "__main__":
    torch.manual_seed(0)
    workdir = tempfile.mkdtemp()
    # the authors' GPU machine: python train.py --model_name resnet18_dropout
    with storages_tagged_as_cuda():
        train_main(["--num_epochs", "1", "--batch_size", "16", "--lr", "0.01", "--data_parallel"], workdir)
    # the reporter's CPU-only machine: python eval.py --use_mcdo
    eval_main(["--use_mcdo", "--num_samples", "3"], workdir)
