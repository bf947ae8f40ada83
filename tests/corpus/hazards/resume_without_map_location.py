import argparse
import os
import tempfile

import torch
from torch import nn


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--resume", action="store_true", default=True)
    return parser.parse_args([])


def main():
    args = get_args()
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    ckpt_dir = tempfile.mkdtemp()
    ckpt_path = os.path.join(ckpt_dir, "model.pth")
    if args.resume and os.path.exists(ckpt_path):  # a checkpoint of an earlier run, perhaps on a GPU machine
        model.load_state_dict(torch.load(ckpt_path))  # expect: DG010

    x = torch.randn(32, 4, device=device)
    y = torch.randn(32, 1, device=device)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    torch.save(model.state_dict(), ckpt_path)


if __name__ == "__main__":
    main()
