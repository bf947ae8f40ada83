"""Human-animation guidance encoder training that stores args (an argparse.Namespace with type=float/choices options) inside each checkpoint; the inference script restores it with torch.load(path, map_location="cpu") and the weights_only default rejects argparse.Namespace
source: https://github.com/fudan-generative-vision/champ/issues/144
reported-error: _pickle.UnpicklingError: Weights only load failed. ... Unsupported global: GLOBAL pytorch_lightning.callbacks.model_checkpoint.ModelCheckpoint was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by default. ... at line 47
root-cause: line 42
expect: DG011
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn


def parse_args(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--guidance", choices=["depth", "normal", "semantic"], default="depth")
    p.add_argument("--out", default=tempfile.mkdtemp())
    return p.parse_args(argv)


class GuidanceEncoder(nn.Module):
    def __init__(self, in_ch=3, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(in_ch, dim, 3, padding=1), nn.SiLU(), nn.Conv2d(dim, dim, 3, stride=2, padding=1))

    def forward(self, x):
        return self.net(x)


def train(args):
    enc = GuidanceEncoder()
    opt = torch.optim.AdamW(enc.parameters(), lr=args.lr)
    for _ in range(3):
        loss = enc(torch.rand(2, 3, 32, 32)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(args.out, f"guidance_encoder_{args.guidance}.pth")
    torch.save({"state_dict": enc.state_dict(), "args": args}, path)  # root-cause
    return path


def load_for_inference(path):
    ckpt = torch.load(path, map_location="cpu")  # fails-here
    enc = GuidanceEncoder()
    enc.load_state_dict(ckpt["state_dict"])
    return enc.eval(), ckpt["args"]


args = parse_args([])
enc, saved_args = load_for_inference(train(args))
print("loaded", saved_args.guidance)
