"""DeiT training resumed from its checkpoint.pth (facebookresearch/deit layout: main.py, engine.py train_one_epoch/evaluate, utils.py save_on_master, models.py): evaluate() returns its accuracy as a NumPy float64, main.py keeps it as max_accuracy inside the checkpoint, and the resume's torch.load (weights_only=True by default since torch 2.6) refuses the NumPy scalar
source: https://github.com/facebookresearch/deit/blob/e6fd5c2cea9d3d1f6a9cc144dafe5af59638d544/engine.py
reported-error: (the repository file itself averages its meters in Python floats; this variant's evaluate computes acc1 with np.mean over per-batch accuracies, so the saved max_accuracy is a numpy.float64 and resuming fails with _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL numpy._core.multiarray.scalar)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at main.py:41
root-cause: engine.py:34
expect: DG011
"""
import argparse
import os
import tempfile

import torch

import utils
from engine import evaluate, train_one_epoch
from models import deit_tiny_patch4


def get_args_parser():
    parser = argparse.ArgumentParser("DeiT training and evaluation script", add_help=False)
    parser.add_argument("--batch-size", default=8, type=int)
    parser.add_argument("--epochs", default=2, type=int)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--output_dir", default="")
    parser.add_argument("--resume", default="")
    parser.add_argument("--start_epoch", default=0, type=int)
    return parser


def main(args):
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    g = torch.Generator().manual_seed(0)
    data_loader_train = [(torch.randn(8, 3, 8, 8, generator=g), torch.randint(0, 4, (8,), generator=g)) for _ in range(3)]
    data_loader_val = [(torch.randn(8, 3, 8, 8, generator=g), torch.randint(0, 4, (8,), generator=g)) for _ in range(2)]
    model = deit_tiny_patch4(num_classes=4).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    criterion = torch.nn.CrossEntropyLoss()
    max_accuracy = 0.0
    if args.resume:
        checkpoint = torch.load(args.resume, map_location="cpu")  # fails-here
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        args.start_epoch = checkpoint["epoch"] + 1
        max_accuracy = checkpoint["max_accuracy"]
    for epoch in range(args.start_epoch, args.epochs):
        train_stats = train_one_epoch(model, criterion, data_loader_train, optimizer, device, epoch)
        test_stats = evaluate(data_loader_val, model, device)
        max_accuracy = max(max_accuracy, test_stats["acc1"])
        print(f"epoch {epoch}: loss {train_stats['loss']:.3f} acc1 {test_stats['acc1']:.1f} max {max_accuracy:.1f}")
        if args.output_dir:
            utils.save_on_master({
                "model": model.state_dict(),
                "optimizer": optimizer.state_dict(),
                "epoch": epoch,
                "max_accuracy": max_accuracy,
            }, os.path.join(args.output_dir, "checkpoint.pth"))


if __name__ == "__main__":
    out = tempfile.mkdtemp()
    parser = get_args_parser()
    main(parser.parse_args(["--output_dir", out, "--epochs", "1"]))
    main(parser.parse_args(["--output_dir", out, "--epochs", "2", "--resume", os.path.join(out, "checkpoint.pth")]))
