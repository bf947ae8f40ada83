"""timm-style training resumed from its own last.pth.tar, where CheckpointSaver in utils/checkpoint_saver.py stores the argparse options as vars(args), a plain dict of str/int/float, so resume_checkpoint's torch.load in models/helpers.py loads it under the default weights_only=True
source: https://github.com/huggingface/pytorch-image-models/blob/bd3516d72390747b404cc70ff37aaf93254b198c/timm/utils/checkpoint_saver.py
reported-error: (none: correct code)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

from models.helpers import resume_checkpoint
from utils.checkpoint_saver import CheckpointSaver

parser = argparse.ArgumentParser(description="PyTorch ImageNet Training")
parser.add_argument("--model", default="tiny_mlp")
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--lr", type=float, default=0.05)
parser.add_argument("--output", default="")
parser.add_argument("--resume", default="")


def create_model(name, num_classes=10):
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, num_classes))


def train_one_epoch(model, optimizer, loader):
    model.train()
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main(argv):
    args = parser.parse_args(argv)
    model = create_model(args.model)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    start_epoch = 0
    if args.resume:
        start_epoch = resume_checkpoint(model, args.resume, optimizer=optimizer)
    loader = [(torch.randn(16, 3, 8, 8), torch.randint(0, 10, (16,))) for _ in range(4)]
    saver = CheckpointSaver(model, optimizer, args=args, checkpoint_dir=args.output, max_history=2)
    for epoch in range(start_epoch, args.epochs):
        loss = train_one_epoch(model, optimizer, loader)
        saver.save_checkpoint(epoch, metric=-loss)
        print(f"epoch {epoch} loss {loss:.3f}")


if __name__ == "__main__":
    out = tempfile.mkdtemp()
    main(["--output", out, "--epochs", "2"])
    # the run was interrupted; resume it for two more epochs
    main(["--output", out, "--epochs", "4", "--resume", os.path.join(out, "last.pth.tar")])
