"""FastSpeech-style synthesis whose get_model() loads a checkpoint written from cuda:0 with torch.load(path, map_location=device, weights_only=True), the device coming from os.environ.get("TTS_DEVICE") with a CPU fallback
source: https://github.com/ming024/FastSpeech2/issues/82
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class FastSpeechLite(nn.Module):
    def __init__(self, n_symbols=40, dim=32, n_mels=20):
        super().__init__()
        self.embed = nn.Embedding(n_symbols, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.mel = nn.Linear(dim, n_mels)

    def forward(self, phonemes):
        h, _ = self.encoder(self.embed(phonemes))
        return self.mel(h)


def save_as_gpu_checkpoint(model, step, path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"model": model.state_dict(), "step": step}, path)
    finally:
        serialization.location_tag = original


def pick_device():
    wanted = os.environ.get("TTS_DEVICE", "cuda")
    return torch.device(wanted if wanted != "cuda" or torch.cuda.is_available() else "cpu")


def get_model(ckpt_path, device):
    model = FastSpeechLite()
    ckpt = torch.load(ckpt_path, map_location=device, weights_only=True)
    model.load_state_dict(ckpt["model"])
    return model.to(device).eval(), ckpt["step"]


path = os.path.join(tempfile.mkdtemp(), "90000.pth.tar")
save_as_gpu_checkpoint(FastSpeechLite(), 90000, path)
device = pick_device()
model, step = get_model(path, device)
with torch.no_grad():
    mel = model(torch.randint(0, 40, (1, 12), device=device))
print("step", step, "mel", tuple(mel.shape), "on", mel.device)
