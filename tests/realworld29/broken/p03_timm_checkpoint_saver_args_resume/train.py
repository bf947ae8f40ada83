"""timm-style training script resumed from its own last.pth.tar (huggingface/pytorch-image-models layout: train.py, utils/checkpoint_saver.py CheckpointSaver, models/_helpers.py resume_checkpoint): the saver stores the argparse Namespace under 'args', and resume_checkpoint's torch.load (weights_only=True by default since torch 2.6) refuses it
source: https://github.com/huggingface/pytorch-image-models/blob/bd3516d72390747b404cc70ff37aaf93254b198c/timm/utils/checkpoint_saver.py
reported-error: (the repository file itself: CheckpointSaver._save puts save_state['args'] = self.args into every checkpoint; loading one with a plain torch.load fails with _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL argparse.Namespace)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at models/helpers.py:6
root-cause: utils/checkpoint_saver.py:45
expect: DG011
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
