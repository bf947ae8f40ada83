"""Preemption-safe training: stage 1 trains and checkpoints, stage 2 resumes from
the checkpoint (main() runs both to simulate a restart).
NOTE: runs fine here because the checkpoint is written on the same (CPU) machine;
a checkpoint written on a GPU box and resumed on a CPU-only machine fails at
torch.load with 'Attempting to deserialize object on a CUDA device but
torch.cuda.is_available() is False'."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--ckpt", default=os.path.join(tempfile.mkdtemp(), "last.pt"))
    p.add_argument("--epochs", type=int, default=2)
    return p.parse_args()


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


def run_epochs(model, optimizer, device, start_epoch, n_epochs, ckpt_path):
    x = torch.randn(64, 4, device=device)
    y = x.sum(dim=1, keepdim=True)
    for epoch in range(start_epoch, start_epoch + n_epochs):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, ckpt_path)
        print(f"epoch {epoch}: {loss.item():.4f}")


def stage1(args, device):
    model = make_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    run_epochs(model, optimizer, device, 0, args.epochs, args.ckpt)


def stage2_resume(args, device):
    model = make_model().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    checkpoint = torch.load(args.ckpt)  # expect: DG010
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    start_epoch = checkpoint["epoch"] + 1
    print("resumed from epoch", checkpoint["epoch"])
    run_epochs(model, optimizer, device, start_epoch, args.epochs, args.ckpt)


def main():
    args = parse()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    stage1(args, device)
    stage2_resume(args, device)


if __name__ == "__main__":
    main()
