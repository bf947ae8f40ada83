"""Pitch tracker whose CNN is built at import time in float32; main() later honours a --double flag with torch.set_default_dtype(torch.float64), so the torch.linspace/torch.sin test signals are float64 when they reach the float32 Conv1d
source: https://github.com/maxrmorrison/torchcrepe/issues/28
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.DoubleTensor) should be the same (set_default_dtype(torch.double) mixed with tensors created earlier)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 27
root-cause: line 55
expect: DG001
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SAMPLE_RATE = 16000
PITCH_BINS = 60


class PitchNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(1, 16, 64, stride=4)
        self.conv2 = nn.Conv1d(16, 32, 16, stride=2)
        self.classifier = nn.Linear(32, PITCH_BINS)

    def forward(self, frames):
        x = F.relu(self.conv1(frames.unsqueeze(1)))  # fails-here
        x = F.relu(self.conv2(x)).mean(-1)
        return self.classifier(x)


MODEL = PitchNet()


def make_frames(freqs, frame_len=1024):
    t = torch.linspace(0, frame_len / SAMPLE_RATE, frame_len)
    return torch.stack([torch.sin(2 * math.pi * f * t) for f in freqs])


def bins_to_hz(bins):
    return 32.7 * 2 ** (bins / 12)


def predict(frames):
    with torch.no_grad():
        logits = MODEL(frames)
    return bins_to_hz(logits.argmax(-1).float())


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--double", action="store_true", help="filter in double precision")
    args = parser.parse_args(argv)
    if args.double:
        torch.set_default_dtype(torch.float64)  # root-cause
    frames = make_frames([110.0, 220.0, 440.0])
    print("frames", frames.dtype, "->", predict(frames))


if __name__ == "__main__":
    main(["--double"])
