"""Train a tiny DETR (facebookresearch/detr layout: main.py, engine.py train_one_epoch, models/__init__.py build_model, models/detr.py DETR/SetCriterion, util/misc.py collate_fn), fixed as in the repository: engine.py moves the NestedTensor with its own .to and every tensor of every target dict with a comprehension, and the criterion allocates its class targets on the logits' device
source: https://github.com/facebookresearch/detr/blob/ee75d89981926db2d794aa162ef85196675cdad9/engine.py
reported-error: (the repository file itself moves every target: targets = [{k: v.to(device) for k, v in t.items()} for t in targets]; this variant drops that line's .to(device), which fails only on a GPU: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import argparse

import torch
from torch.utils.data import DataLoader

import util.misc as utils
from engine import train_one_epoch
from models import build_model


class ToyDetection(torch.utils.data.Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, idx):
        g = torch.Generator().manual_seed(idx)
        n = 1 + idx % 3
        img = torch.rand(3, 16, 16, generator=g)
        target = {"boxes": torch.rand(n, 4, generator=g) * 0.5 + 0.25,
                  "labels": torch.randint(0, 3, (n,), generator=g), "image_id": torch.tensor([idx])}
        return img, target


def get_args_parser():
    parser = argparse.ArgumentParser("Set transformer detector", add_help=False)
    parser.add_argument("--lr", default=1e-4, type=float)
    parser.add_argument("--batch_size", default=2, type=int)
    parser.add_argument("--epochs", default=1, type=int)
    parser.add_argument("--num_queries", default=5, type=int)
    parser.add_argument("--hidden_dim", default=32, type=int)
    parser.add_argument("--clip_max_norm", default=0.1, type=float)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return parser


def main(args):
    device = torch.device(args.device)
    torch.manual_seed(42)
    model, criterion = build_model(args)
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    data_loader_train = DataLoader(ToyDetection(), batch_size=args.batch_size, shuffle=False,
                                   collate_fn=utils.collate_fn)
    for epoch in range(args.epochs):
        train_stats = train_one_epoch(model, criterion, data_loader_train, optimizer, device, epoch, args.clip_max_norm)
        print({f"train_{k}": v for k, v in train_stats.items()}, "epoch", epoch)


if __name__ == "__main__":
    main(get_args_parser().parse_args([]))
