"""The keyword-spotting training of bb02 (pytorch/audio PR #457) with the PR's change: TimeStretch registers phase_advance with self.register_buffer, so model.to(device) moves it with the window buffer and the conv weights, and phase_vocoder runs entirely on the model's device (meta standing in for cuda); the torch.arange(..., device=complex_specgrams.device) inside phase_vocoder, the float32 torch.from_numpy waveforms and the int64 labels are kept
source: https://github.com/pytorch/audio/pull/457
reported-error: (none filed; the fixed situation of bb02)
outcome: ok
root-cause: -
expect: none
"""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
DEVICE = torch.device("meta")  # stand-in for torch.device("cuda")


def angle(complex_tensor):
    return torch.atan2(complex_tensor[..., 1], complex_tensor[..., 0])


def phase_vocoder(complex_specgrams, rate, phase_advance):
    shape = complex_specgrams.size()
    complex_specgrams = complex_specgrams.reshape([-1] + list(shape[-3:]))
    time_steps = torch.arange(0, complex_specgrams.size(-2), rate, device=complex_specgrams.device, dtype=complex_specgrams.dtype)
    alphas = time_steps % 1.0
    phase_0 = angle(complex_specgrams[..., :1, :])
    complex_specgrams = F.pad(complex_specgrams, [0, 0, 0, 2])
    complex_specgrams_0 = complex_specgrams.index_select(-2, time_steps.long())
    complex_specgrams_1 = complex_specgrams.index_select(-2, (time_steps + 1).long())
    angle_0 = angle(complex_specgrams_0)
    angle_1 = angle(complex_specgrams_1)
    norm_0 = torch.norm(complex_specgrams_0, p=2, dim=-1)
    norm_1 = torch.norm(complex_specgrams_1, p=2, dim=-1)
    phase = angle_1 - angle_0 - phase_advance
    phase = phase - 2 * math.pi * torch.round(phase / (2 * math.pi))
    phase = phase + phase_advance
    phase = torch.cat([phase_0, phase[..., :-1]], dim=-1)
    phase_acc = torch.cumsum(phase, -1)
    mag = alphas * norm_1 + (1 - alphas) * norm_0
    stretched = torch.stack([mag * torch.cos(phase_acc), mag * torch.sin(phase_acc)], dim=-1)
    return stretched.reshape(shape[:-3] + stretched.shape[1:])


class Spectrogram(nn.Module):
    def __init__(self, n_fft=256, hop_length=None):
        super().__init__()
        self.n_fft, self.hop_length = n_fft, hop_length or n_fft // 2
        self.register_buffer("window", torch.hann_window(n_fft))

    def forward(self, waveform):
        spec = torch.stft(waveform, self.n_fft, self.hop_length, window=self.window, return_complex=True)
        return torch.view_as_real(spec)  # (..., freq, time, complex=2) as in torchaudio 0.5


class TimeStretch(nn.Module):
    def __init__(self, hop_length=None, n_freq=201, fixed_rate=None):
        super().__init__()
        self.fixed_rate = fixed_rate
        n_fft = (n_freq - 1) * 2
        hop_length = hop_length if hop_length is not None else n_fft // 2
        self.register_buffer("phase_advance", torch.linspace(0, math.pi * hop_length, n_freq)[..., None])

    def forward(self, complex_specgrams, overriding_rate=None):
        assert complex_specgrams.size(-1) == 2, "complex_specgrams should be a complex tensor, shape (..., complex=2)"
        rate = self.fixed_rate if overriding_rate is None else overriding_rate
        if rate is None:
            raise ValueError("If no fixed_rate is specified, must pass a valid rate to the forward method.")
        if rate == 1.0:
            return complex_specgrams
        return phase_vocoder(complex_specgrams, rate, self.phase_advance)


class ComplexNorm(nn.Module):
    def __init__(self, power=2.0):
        super().__init__()
        self.power = power

    def forward(self, complex_tensor):
        return complex_tensor.pow(2).sum(-1).pow(0.5 * self.power)


class KWSNet(nn.Module):
    def __init__(self, n_classes=10, n_fft=256):
        super().__init__()
        self.spec = Spectrogram(n_fft=n_fft)
        self.stretch = TimeStretch(hop_length=n_fft // 2, n_freq=n_fft // 2 + 1)
        self.norm = ComplexNorm(power=2.0)
        self.conv = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.fc = nn.Linear(32, n_classes)

    def forward(self, waveform, rate=1.0):
        spec = self.stretch(self.spec(waveform), rate)
        db = 10.0 * torch.log10(torch.clamp(self.norm(spec), min=1e-10))
        h = self.conv(db.unsqueeze(1)).mean(dim=(2, 3))
        return self.fc(h)


rng = np.random.default_rng(0)
waves = torch.from_numpy(rng.normal(scale=0.1, size=(64, 8000)).astype(np.float32))
labels = torch.from_numpy(rng.integers(0, 10, 64))

model = KWSNet().to(DEVICE)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
for epoch in range(2):
    for i in range(0, 64, 16):
        x, y = waves[i:i + 16].to(DEVICE), labels[i:i + 16].to(DEVICE)
        rate = float(rng.uniform(0.8, 1.25))
        loss = F.cross_entropy(model(x, rate), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss on {loss.device}")
