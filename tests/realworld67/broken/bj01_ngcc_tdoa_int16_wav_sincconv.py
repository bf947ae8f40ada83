"""TDOA estimation in the style of axeber01/ngcc's tdoa_example notebook: a 16-bit PCM speech file is read as an int16 NumPy array, delayed copies for three microphones are made with integer sample shifts and int16 sensor noise, and the 2048-sample snippet is turned into a tensor with torch.from_numpy, which keeps int16; GCC-PHAT still works (torch.fft promotes integers) but NGCC-PHAT's SincNet backbone convolves the int16 waveforms with its float32 sinc filters
source: https://github.com/axeber01/ngcc/issues/1
reported-error: "There is an error as follows, it seems self.filters in SincConv_fast do not have proper dtype `RuntimeError: expected scalar type Short but found Float`" (raised at p = ngcc(x1, x2).squeeze() -> y1 = self.backbone(x1)); maintainer: "self.filters should have type torch.FloatTensor"
outcome: RuntimeError: expected scalar type Short but found Float at line 81
root-cause: line 156
expect: DG005
"""
import math
import os
import tempfile
import wave

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(42)
np.random.seed(42)


class GCC(nn.Module):
    def __init__(self, max_tau=None, dim=2, filt="phat", epsilon=0.001):
        super().__init__()
        self.max_tau, self.dim, self.filt, self.epsilon = max_tau, dim, filt, epsilon

    def forward(self, x, y):
        n = x.shape[-1] + y.shape[-1]
        X = torch.fft.rfft(x, n=n)
        Y = torch.fft.rfft(y, n=n)
        Gxy = X * torch.conj(Y)
        phi = 1 / (torch.abs(Gxy) + self.epsilon)
        cc = torch.fft.irfft(Gxy * phi, n)
        max_shift = int(n / 2)
        if self.max_tau:
            max_shift = np.minimum(self.max_tau, int(max_shift))
        if self.dim == 2:
            cc = torch.cat((cc[:, -max_shift:], cc[:, :max_shift + 1]), dim=-1)
        elif self.dim == 3:
            cc = torch.cat((cc[:, :, -max_shift:], cc[:, :, :max_shift + 1]), dim=-1)
        return cc


class SincConv_fast(nn.Module):
    @staticmethod
    def to_mel(hz):
        return 2595 * np.log10(1 + hz / 700)

    @staticmethod
    def to_hz(mel):
        return 700 * (10 ** (mel / 2595) - 1)

    def __init__(self, out_channels, kernel_size, sample_rate=16000, min_low_hz=50, min_band_hz=50):
        super().__init__()
        self.out_channels = out_channels
        self.kernel_size = kernel_size + 1 if kernel_size % 2 == 0 else kernel_size
        self.sample_rate, self.min_low_hz, self.min_band_hz = sample_rate, min_low_hz, min_band_hz
        mel = np.linspace(self.to_mel(30), self.to_mel(sample_rate / 2 - (min_low_hz + min_band_hz)), out_channels + 1)
        hz = self.to_hz(mel)
        self.low_hz_ = nn.Parameter(torch.Tensor(hz[:-1]).view(-1, 1))
        self.band_hz_ = nn.Parameter(torch.Tensor(np.diff(hz)).view(-1, 1))
        n_lin = torch.linspace(0, (self.kernel_size / 2) - 1, steps=int((self.kernel_size / 2)))
        self.window_ = 0.54 - 0.46 * torch.cos(2 * math.pi * n_lin / self.kernel_size)
        n = (self.kernel_size - 1) / 2.0
        self.n_ = 2 * math.pi * torch.arange(-n, 0).view(1, -1) / self.sample_rate

    def forward(self, waveforms):
        self.n_ = self.n_.to(waveforms.device)
        self.window_ = self.window_.to(waveforms.device)
        low = self.min_low_hz + torch.abs(self.low_hz_)
        high = torch.clamp(low + self.min_band_hz + torch.abs(self.band_hz_), self.min_low_hz, self.sample_rate / 2)
        band = (high - low)[:, 0]
        f_times_t_low = torch.matmul(low, self.n_)
        f_times_t_high = torch.matmul(high, self.n_)
        band_pass_left = ((torch.sin(f_times_t_high) - torch.sin(f_times_t_low)) / (self.n_ / 2)) * self.window_
        band_pass_center = 2 * band.view(-1, 1)
        band_pass_right = torch.flip(band_pass_left, dims=[1])
        band_pass = torch.cat([band_pass_left, band_pass_center, band_pass_right], dim=1)
        band_pass = band_pass / (2 * band[:, None])
        self.filters = band_pass.view(self.out_channels, 1, self.kernel_size)
        return F.conv1d(waveforms, self.filters, stride=1, padding=0, dilation=1, bias=None, groups=1)  # fails-here


class SincNet(nn.Module):
    """Backbone of ngcc's dnn_models.SincNet (circular padding before each convolution), smaller filters."""

    def __init__(self, fs, n_filt=(32, 32, 32), len_filt=(255, 11, 9)):
        super().__init__()
        self.len_filt = len_filt
        self.conv = nn.ModuleList([SincConv_fast(n_filt[0], len_filt[0], fs)])
        self.conv.extend(nn.Conv1d(n_filt[i - 1], n_filt[i], len_filt[i]) for i in range(1, len(n_filt)))
        self.bn = nn.ModuleList(nn.BatchNorm1d(c) for c in n_filt)
        self.act = nn.LeakyReLU(0.2)

    def forward(self, x):
        x = x.view(x.shape[0], 1, x.shape[-1])
        for i, conv in enumerate(self.conv):
            k = conv.kernel_size if isinstance(conv, SincConv_fast) else conv.kernel_size[0]
            x = F.pad(x, (k // 2, k // 2), mode="circular")
            x = self.act(self.bn[i](conv(x)))
        return x


class NGCCPHAT(nn.Module):
    def __init__(self, max_tau=23, sig_len=2048, num_channels=32, fs=16000):
        super().__init__()
        self.max_tau = max_tau
        self.backbone = SincNet(fs, n_filt=(32, 32, num_channels))
        self.gcc = GCC(max_tau=max_tau, dim=3, filt="phat")
        self.mlp_kernels = [11, 9, 7]
        self.channels = [num_channels, 32, 32, 32]
        self.mlp = nn.ModuleList([nn.Sequential(
            nn.Conv1d(self.channels[i], self.channels[i + 1], kernel_size=k),
            nn.BatchNorm1d(self.channels[i + 1]), nn.LeakyReLU(0.2), nn.Dropout(0.5))
            for i, k in enumerate(self.mlp_kernels)])
        self.final_conv = nn.Conv1d(32, 1, kernel_size=5)

    def forward(self, x1, x2):
        batch_size = x1.shape[0]
        y1 = self.backbone(x1)
        y2 = self.backbone(x2)
        cc = self.gcc(y1, y2)
        for k, layer in zip(self.mlp_kernels, self.mlp):
            cc = layer(F.pad(cc, ((k - 1) // 2, k // 2)))
        cc = self.final_conv(F.pad(cc, (2, 2)))
        return cc.reshape([batch_size, -1])


# ---- "speech.wav": 16-bit PCM, read back as int16 like scipy.io.wavfile.read ----
fs = 16000
t = np.arange(fs * 2) / fs
envelope = 0.5 * (1 + np.sin(2 * np.pi * 3 * t)) * (np.random.rand(len(t)) > 0.3)
speech = sum(np.sin(2 * np.pi * f0 * t + np.random.rand()) / (k + 1) for k, f0 in enumerate([180, 360, 720, 1440, 2100]))
pcm = (speech * envelope / 3 * 20000 + np.random.normal(0, 300, len(t))).astype(np.int16)
tmp = tempfile.mkdtemp()
filename = os.path.join(tmp, "speech.wav")
with wave.open(filename, "wb") as w:
    w.setnchannels(1)
    w.setsampwidth(2)
    w.setframerate(fs)
    w.writeframes(pcm.tobytes())
with wave.open(filename, "rb") as w:
    fs = w.getframerate()
    signal = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
signal = np.array(signal)

# ---- three microphones: integer sample delays and int16 sensor noise (no room simulator here) ----
mic_delays = [0, 7, -5]  # samples, relative to the source arrival at mic 0
y = np.stack([np.roll(signal, d) + np.random.randint(-200, 200, len(signal)).astype(np.int16) for d in mic_delays])
delays = [mic_delays[a] - mic_delays[b] for a, b in [[0, 1], [0, 2], [1, 2]]]
print("The true TDOAs are " + str(delays), "| mic signals dtype", y.dtype)

sig_len = 2048
start_idx = 12000
end_idx = start_idx + sig_len
x = torch.from_numpy(y[:, start_idx:end_idx])  # root-cause
print(x.shape, x.dtype)

max_tau = 23
gcc = GCC(max_tau)
ngcc = NGCCPHAT(max_tau, sig_len, 32, fs)
ngcc.eval()

gcc_delays, ngcc_delays = [], []
for i, pairs in enumerate([[0, 1], [0, 2], [1, 2]]):
    x1 = x[pairs[0]].unsqueeze(0)
    x2 = x[pairs[1]].unsqueeze(0)
    cc = gcc(x1, x2).squeeze()
    cc = cc / torch.max(cc)
    p = ngcc(x1, x2).squeeze()
    p = p.detach()
    p = p / torch.max(p)
    shift_gcc = float(torch.argmax(cc, dim=-1)) - max_tau
    shift_ngcc = float(torch.argmax(p, dim=-1)) - max_tau
    gcc_delays.append(shift_gcc)
    ngcc_delays.append(shift_ngcc)
    print("True TDOA (in samples): " + str(delays[i]), "GCC-PHAT estimate: " + str(shift_gcc),
          "NGCC-PHAT estimate: " + str(shift_ngcc))
