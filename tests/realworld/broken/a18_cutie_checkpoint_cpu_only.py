"""Evaluating a checkpoint trained on a GPU on a CPU-only computer: torch.load without map_location
source: https://github.com/hkchengrex/Cutie/issues/37
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 36
root-cause: line 36
expect: DG010
"""
import os
import tempfile
from argparse import ArgumentParser
from unittest import mock

import torch
import torch.nn as nn


class CUTIE(nn.Module):
    def __init__(self):
        super().__init__()
        self.pixel_encoder = nn.Conv2d(3, 8, 3, padding=1)
        self.mask_decoder = nn.Conv2d(8, 1, 1)

    def forward(self, image):
        return torch.sigmoid(self.mask_decoder(torch.relu(self.pixel_encoder(image))))


def save_weights_like_training_server(path):
    # The released weights were saved from a CUDA model; the storages carry the tag 'cuda:0'.
    # (simulated here so that the file is exactly what a GPU machine writes)
    with mock.patch("torch.serialization.location_tag", lambda storage: "cuda:0"):
        torch.save(CUTIE().state_dict(), path)


def get_model(weights):
    network = CUTIE().eval()
    model_weights = torch.load(weights)  # root-cause # fails-here
    network.load_state_dict(model_weights)
    return network


if __name__ == '__main__':
    parser = ArgumentParser()
    parser.add_argument('--weights', default=os.path.join(tempfile.mkdtemp(), 'cutie-base-mega.pth'))
    args = parser.parse_args()
    save_weights_like_training_server(args.weights)

    cutie = get_model(args.weights)
    with torch.inference_mode():
        mask = cutie(torch.rand(1, 3, 48, 64))
    print(mask.shape)
