"""FastSpeech-style synthesis on a CPU-only machine: utils.get_model() restores the acoustic model from a checkpoint written during GPU training with torch.load(ckpt_path) and no map_location, even though it is handed the device
source: https://github.com/ming024/FastSpeech2/issues/82
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 49
root-cause: line 49
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class VarianceAdaptor(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.duration = nn.Sequential(nn.Conv1d(dim, dim, 3, padding=1), nn.ReLU(), nn.Conv1d(dim, 1, 1))

    def forward(self, h):
        return torch.relu(self.duration(h.transpose(1, 2))).squeeze(1)


class FastSpeechLite(nn.Module):
    def __init__(self, n_symbols=40, dim=32, n_mels=20):
        super().__init__()
        self.embed = nn.Embedding(n_symbols, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 2, 64, batch_first=True), 1)
        self.adaptor = VarianceAdaptor(dim)
        self.mel = nn.Linear(dim, n_mels)

    def forward(self, phonemes):
        h = self.encoder(self.embed(phonemes))
        return self.mel(h), self.adaptor(h)


def save_training_checkpoint(model, optimizer, step, path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step}, path)
    finally:
        serialization.location_tag = original


def get_model(ckpt_path, device, train=False):
    model = FastSpeechLite()
    ckpt = torch.load(ckpt_path)  # root-cause  # fails-here
    model.load_state_dict(ckpt["model"])
    model.to(device)
    return model.train() if train else model.eval()


ckpt_dir = tempfile.mkdtemp()
trained = FastSpeechLite()
opt = torch.optim.Adam(trained.parameters(), lr=1e-3)
save_training_checkpoint(trained, opt, 90000, os.path.join(ckpt_dir, "90000.pth.tar"))

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = get_model(os.path.join(ckpt_dir, "90000.pth.tar"), device)
with torch.no_grad():
    mel, durations = model(torch.randint(0, 40, (1, 12), device=device))
print("mel frames", mel.shape, "total duration", durations.sum().item())
