"""Checkpoint stores an argparse.Namespace; argparse.Namespace is allow-listed with
torch.serialization.add_safe_globals before loading with weights_only=True."""
import argparse
import os
import tempfile

import torch
import torch.nn as nn

torch.serialization.add_safe_globals([argparse.Namespace])


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=24)
    parser.add_argument("--save-dir", default=tempfile.mkdtemp())
    return parser.parse_args()


def make_model(args):
    return nn.Sequential(nn.Linear(4, args.width), nn.ReLU(), nn.Linear(args.width, 2))


args = get_args()
model = make_model(args)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, labels = torch.randn(64, 4), torch.randint(0, 2, (64,))
for _ in range(5):
    loss = nn.functional.cross_entropy(model(inputs), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

ckpt_path = os.path.join(args.save_dir, "ckpt.pt")
torch.save({"args": args, "state_dict": model.state_dict()}, ckpt_path)

ckpt = torch.load(ckpt_path, map_location="cpu", weights_only=True)
clone = make_model(ckpt["args"])
clone.load_state_dict(ckpt["state_dict"])
with torch.no_grad():
    print("same output:", torch.allclose(clone(inputs), model(inputs)))
