"""pytorch-AdaIN test.py loads the VGG encoder file that torch_to_pytorch.py writes from a CPU-only model

source: https://github.com/naoto0804/pytorch-AdaIN/blob/47950d0e6656a95a80a4b105c4c0f58d38ef785c/test.py#L122
(the same load is in test_video.py#L106; the writer is torch_to_pytorch.py#L267-L311)
false-alarm: DG010 at line 39: vgg_normalised.pth is produced only by torch_to_pytorch.py, which reads the Lua
model with `load_lua` (CPU tensors), rebuilds it as a CPU nn.Sequential and saves `n.state_dict()` (line 25 here);
nothing in the repo moves the encoder to a GPU before a save (train.py never saves the VGG). The file holds only
storages tagged 'cpu' and loads on a CPU-only machine without map_location.
This reduction runs on the CPU (exit 0).
"""
# Reduction: the normalised VGG-19 is cut to three layers and the Lua file to a freshly built CPU model; test.py's
# load / truncate / .to(device) sequence is kept.
import argparse
import os
import tempfile

import torch
import torch.nn as nn

vgg = nn.Sequential(nn.Conv2d(3, 3, (1, 1)), nn.ReflectionPad2d((1, 1, 1, 1)), nn.Conv2d(3, 8, (3, 3)), nn.ReLU())


def torch_to_pytorch(outputname):
    n = nn.Sequential(nn.Conv2d(3, 3, (1, 1)), nn.ReflectionPad2d((1, 1, 1, 1)), nn.Conv2d(3, 8, (3, 3)), nn.ReLU())
    torch.save(n.state_dict(), outputname + '.pth')
    return outputname + '.pth'


parser = argparse.ArgumentParser()
parser.add_argument('--vgg', type=str, default=None)
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

if args.vgg is None:
    args.vgg = torch_to_pytorch(os.path.join(tempfile.mkdtemp(), 'vgg_normalised'))

vgg.eval()
vgg.load_state_dict(torch.load(args.vgg))
vgg = nn.Sequential(*list(vgg.children())[:4])

vgg.to(device)
with torch.no_grad():
    print(vgg(torch.rand(1, 3, 8, 8, device=device)).shape)
