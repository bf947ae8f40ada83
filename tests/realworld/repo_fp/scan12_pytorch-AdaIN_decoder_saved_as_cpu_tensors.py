"""pytorch-AdaIN test.py loads a decoder checkpoint that train.py always writes with CPU tensors

source: https://github.com/naoto0804/pytorch-AdaIN/blob/47950d0e6656a95a80a4b105c4c0f58d38ef785c/test.py#L121
(the same load is in test_video.py#L105; the writer is train.py#L130-L135)
false-alarm: DG010 at line 52: the decoder file is written only by the training loop (train() here, train.py in the
repo), which copies every entry of `decoder.state_dict()` to `torch.device('cpu')` before `torch.save` (lines 35-38),
so the file holds only storages tagged 'cpu' whatever device trained it and loads on a CPU-only machine without
map_location. The released decoder.pth is the Lua model converted on the CPU by torch_to_pytorch.py and the released
iter_1000000.pth was "trained by this code", so no file the repo writes or ships is tagged 'cuda'. (The offered fix,
`map_location=device`, is harmless but changes nothing.)
This reduction runs on the CPU (exit 0).
"""
# Reduction: the decoder is one reflection-padded conv, the VGG encoder and the AdaIN loss are dropped, the image
# folders are random tensors; training runs on the GPU when one is present, as train.py does (it hard-codes cuda).
import argparse
import os
import tempfile

import torch
import torch.nn as nn

decoder = nn.Sequential(nn.ReflectionPad2d((1, 1, 1, 1)), nn.Conv2d(8, 3, (3, 3)))


def train(save_dir, max_iter=2):
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    decoder.to(device)
    optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-4)
    for i in range(max_iter):
        loss = decoder(torch.rand(1, 8, 4, 4, device=device)).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (i + 1) == max_iter:
            state_dict = decoder.state_dict()
            for key in state_dict.keys():
                state_dict[key] = state_dict[key].to(torch.device('cpu'))
            torch.save(state_dict, os.path.join(save_dir, 'decoder_iter_{:d}.pth.tar'.format(i + 1)))
    return os.path.join(save_dir, 'decoder_iter_{:d}.pth.tar'.format(max_iter))


parser = argparse.ArgumentParser()
parser.add_argument('--decoder', type=str, default=None)
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

if args.decoder is None:
    args.decoder = train(tempfile.mkdtemp())

decoder.eval()
decoder.load_state_dict(torch.load(args.decoder))
decoder.to(device)
with torch.no_grad():
    print(decoder(torch.rand(1, 8, 4, 4, device=device)).shape)
