"""Pitch tracker that applies --double with torch.set_default_dtype(torch.float64) before the CNN is built, so weights, torch.linspace signals, legacy torch.Tensor(...) constants and new_zeros buffers are all float64; the one NumPy window is converted with .type(torch.DoubleTensor)
source: https://github.com/maxrmorrison/torchcrepe/issues/28
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE = 16000


class PitchNet(nn.Module):
    def __init__(self, bins=60):
        super().__init__()
        self.conv1 = nn.Conv1d(1, 16, 64, stride=4)
        self.conv2 = nn.Conv1d(16, 32, 16, stride=2)
        self.classifier = nn.Linear(32, bins)
        self.register_buffer("cents", torch.Tensor([20.0 * i for i in range(bins)]))

    def forward(self, frames):
        x = F.relu(self.conv1(frames.unsqueeze(1)))
        x = F.relu(self.conv2(x)).mean(-1)
        return self.classifier(x)


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--double", action="store_true")
    args = parser.parse_args(argv)
    if args.double:
        torch.set_default_dtype(torch.float64)
    model = PitchNet()
    t = torch.linspace(0, 1024 / SAMPLE_RATE, 1024)
    frames = torch.stack([torch.sin(2 * math.pi * f * t) for f in (110.0, 220.0, 440.0)])
    window = torch.from_numpy(np.hanning(1024)).type(torch.DoubleTensor if args.double else torch.FloatTensor)
    frames = frames * window
    history = frames.new_zeros(frames.size(0))
    with torch.no_grad():
        probs = model(frames).softmax(-1)
    history += (probs * model.cents).sum(-1)
    print("cents", frames.dtype, history.tolist())


if __name__ == "__main__":
    main(["--double"])
