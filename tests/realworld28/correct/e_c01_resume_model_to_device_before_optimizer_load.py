"""Image-classifier training script that resumes from a CPU-mapped checkpoint (torch.load(..., map_location="cpu")) but moves the model to the device before building Adam and calling optimizer.load_state_dict, which casts the restored exp_avg/exp_avg_sq onto each parameter's device
source: https://github.com/pytorch/pytorch/issues/41839
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        return self.fc(x.view(x.size(0), -1))


def save_checkpoint(state, filename):
    torch.save(state, filename)


def train_epoch(model, optimizer, use_cuda, steps=3):
    model.train()
    for _ in range(steps):
        data, target = torch.randn(16, 3, 16, 16), torch.randint(0, 10, (16,))
        if use_cuda:
            data, target = data.cuda(), target.cuda()
        optimizer.zero_grad()
        loss = F.cross_entropy(model(data), target)
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", default="")
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    use_cuda = torch.cuda.is_available()

    # first run: a short training whose checkpoint we resume from
    workdir = tempfile.mkdtemp()
    model = Net()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    train_epoch(model, optimizer, use_cuda=False)
    args.resume = os.path.join(workdir, "checkpoint.pth.tar")
    save_checkpoint({"epoch": 1, "state_dict": model.state_dict(), "optimizer": optimizer.state_dict()}, args.resume)

    # resumed run
    model = Net()
    if use_cuda:
        model.cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    if args.resume:
        checkpoint = torch.load(args.resume, map_location="cpu")
        start_epoch = checkpoint["epoch"]
        model.load_state_dict(checkpoint["state_dict"])
        optimizer.load_state_dict(checkpoint["optimizer"])
    for epoch in range(start_epoch, start_epoch + 2):
        print("epoch", epoch, "loss", round(train_epoch(model, optimizer, use_cuda), 4))


if __name__ == "__main__":
    main()
