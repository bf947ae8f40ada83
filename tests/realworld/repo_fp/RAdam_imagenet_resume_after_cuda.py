"""RAdam ImageNet script: --resume loads with a bare torch.load, after the model was moved to CUDA unconditionally

source: https://github.com/LiyuanLucasLiu/RAdam/blob/d9fd30a337894c4003768561d45e8730dbd41333/cifar_imagenet/imagenet.py#L192
false-alarm: DG010 at line 86: `checkpoint = torch.load(args.resume)` is reached only after
`model = torch.nn.DataParallel(model).cuda()` (line 78; `model.cuda()` in the alexnet/vgg branch), which runs
whatever `use_cuda` says. On a CPU-only machine the script stops there ("Torch not compiled with CUDA
enabled") and never gets to the load; where it does get there, CUDA is present and the checkpoint (its
own save_checkpoint of a CUDA model, line 38) loads. The `use_cuda` flag only guards the batches' .cuda()
in train/test, so the file looks as if it ran on the CPU but does not. Like the original, this script
needs a GPU: on the CPU torch it stops at line 78 with AssertionError, before the load.
"""
# Reduction: ImageFolder/ImageNet and torchvision's models are replaced by a random TensorDataset and a
# small classifier; AdamW/RAdam by torch.optim.AdamW; Logger and the lr schedule are dropped. The order
# of the original (model and criterion to CUDA, optimizer, then --resume) is kept.
import argparse
import os
import shutil
import tempfile

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", default=2, type=int)
parser.add_argument("--lr", default=1e-3, type=float)
parser.add_argument("--resume", default="", type=str)
parser.add_argument("--checkpoint", default="", type=str)
args = parser.parse_args()

use_cuda = torch.cuda.is_available()
best_acc = 0


def save_checkpoint(state, is_best, checkpoint, filename="checkpoint.pth.tar"):
    filepath = os.path.join(checkpoint, filename)
    torch.save(state, filepath)
    if is_best:
        shutil.copyfile(filepath, os.path.join(checkpoint, "model_best.pth.tar"))


def train(loader, model, criterion, optimizer, use_cuda):
    model.train()
    for inputs, targets in loader:
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda(non_blocking=True)
        loss = criterion(model(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def test(loader, model, use_cuda):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for inputs, targets in loader:
            if use_cuda:
                inputs, targets = inputs.cuda(), targets.cuda()
            correct += (model(inputs).argmax(1) == targets).sum().item()
            total += targets.numel()
    return 100.0 * correct / total


def main():
    global best_acc
    start_epoch = 0
    if not args.checkpoint:
        args.checkpoint = tempfile.mkdtemp()

    data = TensorDataset(torch.randn(64, 3, 8, 8), torch.randint(0, 10, (64,)))
    train_loader = DataLoader(data, batch_size=16, shuffle=True, pin_memory=True)
    val_loader = DataLoader(data, batch_size=16, shuffle=False, pin_memory=True)

    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 10))
    model = torch.nn.DataParallel(model).cuda()

    criterion = nn.CrossEntropyLoss().cuda()
    optimizer = optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)

    if args.resume:
        assert os.path.isfile(args.resume), "Error: no checkpoint directory found!"
        args.checkpoint = os.path.dirname(args.resume)
        checkpoint = torch.load(args.resume)
        best_acc = checkpoint["best_acc"]
        start_epoch = checkpoint["epoch"]
        model.load_state_dict(checkpoint["state_dict"])
        optimizer.load_state_dict(checkpoint["optimizer"])

    for epoch in range(start_epoch, args.epochs):
        train_loss = train(train_loader, model, criterion, optimizer, use_cuda)
        test_acc = test(val_loader, model, use_cuda)
        is_best = test_acc > best_acc
        best_acc = max(test_acc, best_acc)
        save_checkpoint(
            {
                "epoch": epoch + 1,
                "state_dict": model.state_dict(),
                "acc": test_acc,
                "best_acc": best_acc,
                "optimizer": optimizer.state_dict(),
            },
            is_best,
            checkpoint=args.checkpoint,
        )
        print(f"epoch {epoch + 1}: loss {train_loss:.3f}, acc {test_acc:.1f}")


if __name__ == "__main__":
    main()
