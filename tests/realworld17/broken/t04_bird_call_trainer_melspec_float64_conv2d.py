"""Bird-call detector: a hand-rolled NumPy mel-spectrogram front end (STFT magnitude @ mel filterbank, log) returns float64 like librosa's melspectrogram did, the Dataset wraps it with torch.from_numpy, and the Trainer's Conv2d model receives Double input
source: https://github.com/librosa/librosa/issues/825
reported-error: melspectrogram of float32 array returns float64 array (then RuntimeError: Input type (double) and bias type (float) should be the same)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 56
root-cause: line 27
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def mel_filterbank(n_mels, n_fft, sr):
    freqs = np.linspace(0, sr / 2, n_fft // 2 + 1)
    edges = np.linspace(0, sr / 2, n_mels + 2)
    fb = np.zeros((n_mels, freqs.size))
    for m in range(n_mels):
        lo, c, hi = edges[m], edges[m + 1], edges[m + 2]
        fb[m] = np.clip(np.minimum((freqs - lo) / (c - lo), (hi - freqs) / (hi - c)), 0, None)
    return fb


def melspectrogram(y, sr=16000, n_fft=256, hop=128, n_mels=32):
    frames = np.lib.stride_tricks.sliding_window_view(y, n_fft)[::hop] * np.hanning(n_fft)
    S = np.abs(np.fft.rfft(frames, axis=-1)) ** 2
    return np.log1p(mel_filterbank(n_mels, n_fft, sr) @ S.T)  # root-cause


class CallDataset(Dataset):
    def __init__(self, n=32, seed=0):
        rng = np.random.default_rng(seed)
        self.clips = rng.standard_normal((n, 4096)).astype(np.float32)
        self.labels = rng.integers(0, 2, n)

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        spec = torch.from_numpy(melspectrogram(self.clips[i])).unsqueeze(0)
        return spec, int(self.labels[i])


class Trainer:
    def __init__(self, cfg):
        self.device = torch.device(cfg["device"])
        self.model = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2)
        ).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])
        self.criterion = nn.CrossEntropyLoss()

    def train_epoch(self, loader):
        for spec, label in loader:
            spec, label = spec.to(self.device), label.to(self.device)
            logits = self.model(spec)  # fails-here
            loss = self.criterion(logits, label)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()


trainer = Trainer({"device": "cpu", "lr": 1e-3})
print("loss", trainer.train_epoch(DataLoader(CallDataset(), batch_size=8, shuffle=True)))
