"""Verification script run with --device cpu that loads a model checkpoint written by a GPU training run without map_location
source: https://github.com/KaidiXu/Beta-CROWN/pull/1
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 40
root-cause: line 40
expect: DG010
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
    """Write the file exactly as the CUDA training job did (storages tagged cuda:0)."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


def write_training_checkpoint(path):
    with as_saved_by_gpu_run():
        torch.save({"state_dict": cifar_model().state_dict(), "epoch": 200}, path)


def load_model(args):
    model_ori = cifar_model()
    checkpoint = torch.load(args.load)  # root-cause # fails-here
    model_ori.load_state_dict(checkpoint["state_dict"])
    return model_ori.to(args.device)


def verify(model, args):
    x = torch.rand(args.batch, 3, 32, 32, device=args.device)
    eps = args.epsilon
    with torch.no_grad():
        lb = model(torch.clamp(x - eps, 0, 1))
        ub = model(torch.clamp(x + eps, 0, 1))
    print("bound width", (ub - lb).abs().mean().item())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", type=str, default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--load", type=str, default=os.path.join(tempfile.mkdtemp(), "cifar_cnn_a_adv.pth"))
    parser.add_argument("--epsilon", type=float, default=2.0 / 255)
    parser.add_argument("--batch", type=int, default=4)
    args = parser.parse_args()
    write_training_checkpoint(args.load)
    model = load_model(args)
    verify(model, args)
