"""Wav2Lip training scripts load a checkpoint without map_location only in the branch taken when CUDA is available

source: https://github.com/Rudrabha/Wav2Lip/blob/5c90fa9b4a2c2a37d0b4ebf7633ac41534eb9941/color_syncnet_train.py#L221
(the same `_load` is in wav2lip_train.py#L308 and hq_wav2lip_train.py#L366)
false-alarm: DG010 at line 64: the bare `torch.load(checkpoint_path)` sits under `if use_cuda:`, and
`use_cuda = torch.cuda.is_available()` is a module-level constant (line 34) that nothing reassigns. The `else:`
branch loads the same file with `map_location=lambda storage, loc: storage`. A CPU-only machine takes the else
branch, so a CUDA-tagged checkpoint never reaches the bare load; where the bare load runs, CUDA is there to
restore the tensors on. The checker accepts this shape when the test is `torch.cuda.is_available()` itself
(repo_fp/stargan-v2_load_in_cuda_available_branch.py) but not through the `use_cuda` flag.
This reduction runs on the CPU (exit 0), including the resume from a CUDA-tagged checkpoint.
"""
# Reduction: SyncNet_color is a 1x1 conv on 5 stacked frames, the LRS2 dataset is random tensors, hparams are
# constants, cosine_loss is BCE on a sigmoid. The resume file is written by the script's own save_checkpoint;
# to play a checkpoint written on a GPU, write_gpu_checkpoint tags its storages 'cuda:0' by patching
# torch.serialization.location_tag during the save (what a CUDA run of the original would write).
import argparse
import os
import tempfile
from os.path import join

import torch
from torch import nn
from torch import optim
from torch.utils import data as data_utils

parser = argparse.ArgumentParser(description='Code to train the expert lip-sync discriminator')
parser.add_argument('--checkpoint_dir', help='Save checkpoints to this directory', default=None, type=str)
parser.add_argument('--checkpoint_path', help='Resumed from this checkpoint', default=None, type=str)
args = parser.parse_args()

global_step = 0
global_epoch = 0
use_cuda = torch.cuda.is_available()
print('use_cuda: {}'.format(use_cuda))


class SyncNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.face_encoder = nn.Conv2d(15, 4, 1)
        self.audio_encoder = nn.Conv2d(1, 4, 1)

    def forward(self, audio_sequences, face_sequences):
        a = self.audio_encoder(audio_sequences).mean((2, 3))
        v = self.face_encoder(face_sequences).mean((2, 3))
        return a, v


def save_checkpoint(model, optimizer, step, checkpoint_dir, epoch):
    checkpoint_path = join(checkpoint_dir, "checkpoint_step{:09d}.pth".format(global_step))
    torch.save({
        "state_dict": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "global_step": step,
        "global_epoch": epoch,
    }, checkpoint_path)
    print("Saved checkpoint:", checkpoint_path)
    return checkpoint_path


def _load(checkpoint_path):
    if use_cuda:
        checkpoint = torch.load(checkpoint_path)
    else:
        checkpoint = torch.load(checkpoint_path,
                                map_location=lambda storage, loc: storage)
    return checkpoint


def load_checkpoint(path, model, optimizer, reset_optimizer=False):
    global global_step
    global global_epoch

    print("Load checkpoint from: {}".format(path))
    checkpoint = _load(path)
    model.load_state_dict(checkpoint["state_dict"])
    if not reset_optimizer:
        optimizer_state = checkpoint["optimizer"]
        if optimizer_state is not None:
            optimizer.load_state_dict(checkpoint["optimizer"])
    global_step = checkpoint["global_step"]
    global_epoch = checkpoint["global_epoch"]
    return model


def train(device, model, train_data_loader, optimizer, checkpoint_dir=None, nepochs=1):
    global global_step, global_epoch
    path = None
    while global_epoch < nepochs:
        for x, mel, y in train_data_loader:
            model.train()
            optimizer.zero_grad()
            x, mel, y = x.to(device), mel.to(device), y.to(device)
            a, v = model(mel, x)
            d = nn.functional.cosine_similarity(a, v)
            loss = nn.functional.binary_cross_entropy(torch.sigmoid(d).unsqueeze(1), y)
            loss.backward()
            optimizer.step()
            global_step += 1
        path = save_checkpoint(model, optimizer, global_step, checkpoint_dir, global_epoch)
        global_epoch += 1
    return path


def write_gpu_checkpoint(path, model, optimizer):
    real_tag = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: 'cuda:0'
    try:
        torch.save({"state_dict": model.state_dict(), "optimizer": optimizer.state_dict(),
                    "global_step": 7, "global_epoch": 1}, path)
    finally:
        torch.serialization.location_tag = real_tag


if __name__ == "__main__":
    checkpoint_dir = args.checkpoint_dir or tempfile.mkdtemp()
    checkpoint_path = args.checkpoint_path

    train_dataset = data_utils.TensorDataset(torch.randn(8, 15, 8, 8), torch.randn(8, 1, 8, 4),
                                             torch.randint(0, 2, (8, 1)).float())
    train_data_loader = data_utils.DataLoader(train_dataset, batch_size=4, shuffle=True)

    device = torch.device("cuda" if use_cuda else "cpu")
    model = SyncNet().to(device)
    optimizer = optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-4)

    if checkpoint_path is None:
        checkpoint_path = join(checkpoint_dir, "gpu_checkpoint.pth")
        write_gpu_checkpoint(checkpoint_path, model, optimizer)
    load_checkpoint(checkpoint_path, model, optimizer, reset_optimizer=False)
    print("resumed at step", global_step)

    train(device, model, train_data_loader, optimizer, checkpoint_dir=checkpoint_dir, nepochs=2)
