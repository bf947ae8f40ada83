"""Learnable-frequency Fourier feature layer: the time-index buffer self.n_ is built with torch.arange on integers (int64), and forward multiplies the float frequency matrix with it
source: https://github.com/pytorch/pytorch/issues/11951
reported-error: RuntimeError: Expected object of scalar type Float but got scalar type Long for argument #2 'mat2' (f_times_t = torch.matmul(low, self.n_))
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: float != long int at line 25
root-cause: line 20
expect: DG005
"""
import math

import torch
import torch.nn as nn


class SincFourierFeatures(nn.Module):
    def __init__(self, n_filters=8, kernel_size=33, sample_rate=16000):
        super().__init__()
        self.sample_rate = sample_rate
        low_hz = torch.linspace(30, sample_rate / 2 - 200, n_filters).unsqueeze(1)
        self.low_hz_ = nn.Parameter(low_hz / sample_rate)
        self.register_buffer("n_", torch.arange(-(kernel_size // 2), kernel_size // 2 + 1).unsqueeze(0))  # root-cause
        self.window_ = torch.hamming_window(kernel_size)

    def forward(self, waveforms):
        low = self.low_hz_.abs()
        f_times_t = torch.matmul(low, self.n_)  # fails-here
        filters = torch.cos(2 * math.pi * f_times_t) * self.window_
        return nn.functional.conv1d(waveforms, filters.unsqueeze(1), padding=filters.shape[-1] // 2)


class SpeakerNet(nn.Module):
    def __init__(self, n_speakers=3):
        super().__init__()
        self.frontend = SincFourierFeatures()
        self.classifier = nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, n_speakers))

    def forward(self, wav):
        return self.classifier(self.frontend(wav).abs())


model = SpeakerNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
wav = torch.randn(6, 1, 800)
spk = torch.tensor([0, 1, 2, 0, 1, 2])
for step in range(3):
    loss = nn.functional.cross_entropy(model(wav), spk)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
