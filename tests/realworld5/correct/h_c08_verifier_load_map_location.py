"""Verification script that loads the GPU-written checkpoint with map_location=args.device (the merged fix)
source: https://github.com/KaidiXu/Beta-CROWN/pull/1
reported-error: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import contextlib
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


def cifar_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 16 * 16, 10))


@contextlib.contextmanager
def as_saved_by_gpu_run():
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def load_model(args):
    model_ori = cifar_model()
    checkpoint = torch.load(args.load, map_location=torch.device(args.device))
    model_ori.load_state_dict(checkpoint["state_dict"])
    return model_ori.to(args.device)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=str, default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--load", type=str, default=os.path.join(tempfile.mkdtemp(), "cifar_cnn.pth"))
    args = parser.parse_args()
    with as_saved_by_gpu_run():
        torch.save({"state_dict": cifar_model().state_dict(), "epoch": 200}, args.load)
    model = load_model(args)
    with torch.no_grad():
        print(model(torch.rand(2, 3, 32, 32, device=args.device)).shape)
