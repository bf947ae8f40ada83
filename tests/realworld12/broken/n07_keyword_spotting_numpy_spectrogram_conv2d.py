"""Keyword-spotting trainer whose Dataset computes a log-power spectrogram in NumPy (np.hanning window, np.fft.rfft, log10 of the power: all float64) and returns torch.from_numpy(spec) from __getitem__; the first Conv2d of the classifier gets a double batch
source: https://github.com/cornellius-gp/gpytorch/issues/382
reported-error: RuntimeError: expected type torch.DoubleTensor but got torch.FloatTensor (NumPy default precision is float64, PyTorch's is float32)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 47
root-cause: line 36
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

SR, N_FFT, HOP = 8000, 128, 64


def spectrogram(wave):
    window = np.hanning(N_FFT)
    frames = np.lib.stride_tricks.sliding_window_view(wave, N_FFT)[::HOP] * window
    power = np.abs(np.fft.rfft(frames, axis=-1)) ** 2
    return np.log10(power + 1e-6).T


class KeywordClips(Dataset):
    def __init__(self, n=32, seed=0):
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 3, n)
        t = np.arange(SR // 2) / SR
        self.waves = [np.sin(2 * np.pi * (300 + 400 * k) * t) + 0.1 * rng.standard_normal(t.size) for k in self.labels]

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        spec = spectrogram(self.waves[i])
        spec = (spec - spec.mean()) / (spec.std() + 1e-5)
        return torch.from_numpy(spec).unsqueeze(0), int(self.labels[i])  # root-cause


class KWSNet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, n_classes)

    def forward(self, spec):
        return self.fc(self.conv(spec).flatten(1))  # fails-here


if __name__ == "__main__":
    loader = DataLoader(KeywordClips(), batch_size=8, shuffle=True)
    model = KWSNet()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    for epoch in range(2):
        for spec, label in loader:
            loss = nn.functional.cross_entropy(model(spec), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
