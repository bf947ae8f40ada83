"""Artery/vein segmentation prediction script: checkpoint loaded without map_location on a CPU machine
source: https://github.com/agaldran/a_v_uncertain/issues/8
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 41
root-cause: line 41
expect: DG010
"""
import argparse
import os
import tempfile
from unittest import mock

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument('--path_to_check_point', type=str, default=os.path.join(tempfile.mkdtemp(), 'model_checkpoint.pth.tar'))
parser.add_argument('--use_cuda', type=bool, default=torch.cuda.is_available())


class UNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.out = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        return self.out(self.down(x))


def write_checkpoint_from_gpu_run(path):
    # what the author's GPU training run produced (storages tagged 'cuda:0')
    model = UNet()
    with mock.patch("torch.serialization.location_tag", lambda storage: "cuda:0"):
        torch.save({'state_dict': model.state_dict(), 'epoch': 120, 'best_auc': 0.96}, path)


def main(args):
    device = torch.device('cuda' if args.use_cuda else 'cpu')
    model = UNet()
    checkpoint = torch.load(args.path_to_check_point)  # root-cause # fails-here
    model.load_state_dict(checkpoint['state_dict'])
    model = model.to(device)
    model.eval()
    with torch.no_grad():
        pred = model(torch.rand(1, 3, 64, 64).to(device)).softmax(dim=1)
    print('predicted classes:', pred.argmax(dim=1).unique().tolist())


if __name__ == '__main__':
    args = parser.parse_args()
    write_checkpoint_from_gpu_run(args.path_to_check_point)
    main(args)
