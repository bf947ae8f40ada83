"""Night-flight-call detector: compute_pcen() builds a PCEN representation with NumPy (mel projection in float64, the cast back to float32 dropped), the clip loader stacks it with torch.tensor, and the GRU classifier refuses the float64 sequence
source: https://github.com/BirdVox/birdvoxdetect/issues/3
reported-error: melspectrogram is type-unstable and returns 64-bit output even with a 32-bit input; PCEN needs converting to single precision
outcome: ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64) at line 46
root-cause: line 23
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


def compute_pcen(audio, n_mels=24, n_fft=128, hop=64, alpha=0.8, delta=10.0, r=0.25, s=0.025):
    frames = np.lib.stride_tricks.sliding_window_view(audio, n_fft)[::hop]
    power = np.abs(np.fft.rfft(frames, axis=-1)) ** 2
    mel_basis = np.random.default_rng(1).random((n_mels, power.shape[-1]))
    melspec = power @ mel_basis.T
    M = np.empty_like(melspec)
    M[0] = melspec[0]
    for t in range(1, len(melspec)):
        M[t] = (1 - s) * M[t - 1] + s * melspec[t]
    pcen = (melspec / (1e-6 + M) ** alpha + delta) ** r - delta ** r
    return pcen  # root-cause


class ClipLoader:
    def __init__(self, n_clips=12, batch_size=4, seed=0):
        rng = np.random.default_rng(seed)
        self.audio = rng.standard_normal((n_clips, 2048)).astype(np.float32)
        self.labels = rng.integers(0, 2, n_clips)
        self.batch_size = batch_size

    def __iter__(self):
        for i in range(0, len(self.audio), self.batch_size):
            feats = torch.tensor(np.stack([compute_pcen(a) for a in self.audio[i:i + self.batch_size]]))
            yield feats, torch.as_tensor(self.labels[i:i + self.batch_size])


class Detector(nn.Module):
    def __init__(self, n_mels=24, hidden=32):
        super().__init__()
        self.gru = nn.GRU(n_mels, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)

    def forward(self, x):
        _, h = self.gru(x)  # fails-here
        return self.out(h[-1])


model = Detector()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for feats, labels in ClipLoader():
    loss = nn.functional.cross_entropy(model(feats), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
