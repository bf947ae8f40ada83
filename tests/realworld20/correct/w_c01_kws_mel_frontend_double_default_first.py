"""Keyword-spotting trainer that wants exact float64 features and therefore switches torch.set_default_dtype(torch.float64) in main() before the Trainer builds the MelSpectrogram buffers and the classifier, so filterbank, window, waveforms and weights are all float64
source: https://github.com/pytorch/audio/issues/1753
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import math

import torch
import torch.nn as nn


# ---- features.py
def mel_filterbank(n_freqs, n_mels, sample_rate):
    mel = lambda f: 2595.0 * math.log10(1.0 + f / 700.0)
    mels = torch.linspace(mel(0.0), mel(sample_rate / 2), n_mels + 2)
    hz = 700.0 * (10 ** (mels / 2595.0) - 1.0)
    freqs = torch.linspace(0, sample_rate / 2, n_freqs)
    fb = torch.zeros(n_freqs, n_mels)
    for m in range(n_mels):
        up = (freqs - hz[m]) / (hz[m + 1] - hz[m])
        down = (hz[m + 2] - freqs) / (hz[m + 2] - hz[m + 1])
        fb[:, m] = torch.clamp(torch.minimum(up, down), min=0.0)
    return fb


class MelSpectrogram(nn.Module):
    def __init__(self, sample_rate=16000, n_fft=400, hop=160, n_mels=40):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("fb", mel_filterbank(n_fft // 2 + 1, n_mels, sample_rate))

    def forward(self, wav):
        frames = wav.unfold(-1, self.n_fft, self.hop) * self.window
        power = torch.fft.rfft(frames).abs() ** 2
        return torch.log(torch.matmul(power, self.fb) + 1e-6)


# ---- train.py
class Trainer:
    def __init__(self, args):
        self.frontend = MelSpectrogram(n_mels=args.n_mels)
        self.model = nn.Sequential(nn.Flatten(), nn.LazyLinear(64), nn.ReLU(), nn.Linear(64, args.n_words))

    def setup_precision(self, exact):
        if exact:
            torch.set_default_dtype(torch.float64)

    def synth_batch(self, n, sr=16000):
        t = torch.arange(sr // 4) / sr
        pitch = torch.randint(200, 800, (n, 1))
        return torch.sin(2 * math.pi * pitch * t) + 0.05 * torch.randn(n, t.numel())

    def step(self, n=8):
        feats = self.frontend(self.synth_batch(n))
        return self.model(feats)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n-mels", type=int, default=40)
    p.add_argument("--n-words", type=int, default=10)
    p.add_argument("--exact-features", action="store_true", default=True)
    args = p.parse_args([])
    if args.exact_features:
        torch.set_default_dtype(torch.float64)
    trainer = Trainer(args)
    print(trainer.step().shape)


if __name__ == "__main__":
    main()
