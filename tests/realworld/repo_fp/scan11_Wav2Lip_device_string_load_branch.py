"""Wav2Lip inference loads the checkpoint without map_location only when the module's device string is 'cuda'

source: https://github.com/Rudrabha/Wav2Lip/blob/5c90fa9b4a2c2a37d0b4ebf7633ac41534eb9941/inference.py#L160
(the same `_load` is in evaluation/gen_videos_from_filelist.py#L129 and evaluation/real_videos_inference.py#L176)
false-alarm: DG010 at line 45: the bare `torch.load(checkpoint_path)` runs only when `device == 'cuda'`, and
`device = 'cuda' if torch.cuda.is_available() else 'cpu'` is a module-level constant (line 39) that nothing
reassigns. On a CPU-only machine `device` is 'cpu' and the else branch loads the same file with
`map_location=lambda storage, loc: storage`, so the released GPU-trained wav2lip.pth loads there; where the bare
load runs, CUDA is available. (The offered fix, `map_location=device`, is harmless but changes nothing.)
This reduction runs on the CPU (exit 0) with a CUDA-tagged checkpoint.
"""
# Reduction: Wav2Lip is a 1x1 conv, face detection, the mel spectrogram and the video writer are dropped; the
# checkpoint is a stand-in for the downloaded wav2lip.pth (a DataParallel state dict under "state_dict"),
# written with its storages tagged 'cuda:0' by patching torch.serialization.location_tag during the save.
import argparse
import os
import tempfile

import numpy as np
import torch
from torch import nn

parser = argparse.ArgumentParser(description='Inference code to lip-sync videos in the wild using Wav2Lip models')
parser.add_argument('--checkpoint_path', type=str, help='Name of saved checkpoint to load weights from', default=None)
parser.add_argument('--wav2lip_batch_size', type=int, help='Batch size for Wav2Lip model(s)', default=4)
args = parser.parse_args()


class Wav2Lip(nn.Module):
    def __init__(self):
        super().__init__()
        self.face_decoder = nn.Conv2d(6, 3, 1)

    def forward(self, audio_sequences, face_sequences):
        return torch.sigmoid(self.face_decoder(face_sequences) + audio_sequences.mean())


mel_step_size = 16
device = 'cuda' if torch.cuda.is_available() else 'cpu'
print('Using {} for inference.'.format(device))


def _load(checkpoint_path):
    if device == 'cuda':
        checkpoint = torch.load(checkpoint_path)
    else:
        checkpoint = torch.load(checkpoint_path,
                                map_location=lambda storage, loc: storage)
    return checkpoint


def load_model(path):
    model = Wav2Lip()
    print("Load checkpoint from: {}".format(path))
    checkpoint = _load(path)
    s = checkpoint["state_dict"]
    new_s = {}
    for k, v in s.items():
        new_s[k.replace('module.', '')] = v
    model.load_state_dict(new_s)

    model = model.to(device)
    return model.eval()


def write_stand_in_checkpoint(path):
    real_tag = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: 'cuda:0'
    try:
        sd = {'module.' + k: v for k, v in Wav2Lip().state_dict().items()}
        torch.save({"state_dict": sd, "global_step": 250000}, path)
    finally:
        torch.serialization.location_tag = real_tag


def main():
    checkpoint_path = args.checkpoint_path
    if checkpoint_path is None:
        checkpoint_path = os.path.join(tempfile.mkdtemp(), 'wav2lip.pth')
        write_stand_in_checkpoint(checkpoint_path)
    model = load_model(checkpoint_path)
    print("Model loaded")

    img_batch = np.random.rand(args.wav2lip_batch_size, 96, 96, 6)
    mel_batch = np.random.rand(args.wav2lip_batch_size, 80, mel_step_size, 1)
    img_batch = torch.FloatTensor(np.transpose(img_batch, (0, 3, 1, 2))).to(device)
    mel_batch = torch.FloatTensor(np.transpose(mel_batch, (0, 3, 1, 2))).to(device)
    with torch.no_grad():
        pred = model(mel_batch, img_batch)
    pred = pred.cpu().numpy().transpose(0, 2, 3, 1) * 255.
    print(pred.shape)


if __name__ == '__main__':
    main()
