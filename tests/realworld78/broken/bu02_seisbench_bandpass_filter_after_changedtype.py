"""PhaseNet-style phase picker trained on 3-component seismograms through a SeisBench-style augmentation pipeline (re-typed: WindowAroundSample, RandomWindow, Normalize, ChangeDtype, Filter, ProbabilisticLabeller); the user appends a Butterworth bandpass Filter after ChangeDtype(np.float32), and the filter (second-order sections with float64 coefficients, as scipy.signal.sosfilt) hands float64 windows to the float32 model
source: https://github.com/seisbench/seisbench/issues/140
reported-error: "sbg.ChangeDtype(np.float32), sbg.Filter(N=3, Wn=np.array([2., 25.], dtype=np.float32), btype='bandpass') ... Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same" (maintainer: sbg.Filter relies on scipy filtering which always outputs float64; swap the last two augmentations)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 153
root-cause: line 166
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
SR = 100.0
PHASES = {"trace_p_arrival_sample": "P", "trace_s_arrival_sample": "S"}


# --- seisbench.generate.augmentation (re-typed) ---
class WindowAroundSample:
    def __init__(self, keys, samples_before, windowlen):
        self.keys, self.before, self.windowlen = keys, samples_before, windowlen

    def __call__(self, state):
        x, meta = state["X"]
        center = int(meta[self.keys[np.random.randint(len(self.keys))]])
        start = max(0, center - self.before)
        meta = {k: (v - start if k in PHASES else v) for k, v in meta.items()}
        state["X"] = (x[:, start:start + self.windowlen], meta)


class RandomWindow:
    def __init__(self, windowlen):
        self.windowlen = windowlen

    def __call__(self, state):
        x, meta = state["X"]
        if x.shape[-1] < self.windowlen:  # strategy="pad"
            x = np.pad(x, ((0, 0), (0, self.windowlen - x.shape[-1])))
        state["X"] = (x[:, : self.windowlen], meta)


class Normalize:
    def __init__(self, demean_axis=-1, amp_norm_axis=-1, eps=1e-10):
        self.demean_axis, self.amp_norm_axis, self.eps = demean_axis, amp_norm_axis, eps

    def __call__(self, state):
        x, meta = state["X"]
        x = x - np.mean(x, axis=self.demean_axis, keepdims=True)
        x = x / (np.std(x, axis=self.amp_norm_axis, keepdims=True) + self.eps)
        state["X"] = (x, meta)


class ChangeDtype:
    def __init__(self, dtype):
        self.dtype = dtype

    def __call__(self, state):
        x, meta = state["X"]
        state["X"] = (x.astype(self.dtype), meta)


def butter_bandpass_sos(N, Wn, fs):
    """N cascaded RBJ band-pass biquads (stand-in for scipy.signal.butter(..., output='sos'))."""
    f0 = math.sqrt(Wn[0] * Wn[1])
    w0 = 2 * math.pi * f0 / fs
    alpha = math.sin(w0) * math.sinh(math.log(2) / 2 * math.log2(Wn[1] / Wn[0]) * w0 / math.sin(w0))
    b = np.array([alpha, 0.0, -alpha])
    a = np.array([1 + alpha, -2 * math.cos(w0), 1 - alpha])
    return np.tile(np.concatenate([b / a[0], a / a[0]]), (N, 1))  # float64, shape (N, 6)


def sosfilt(sos, x, axis=-1):
    y = np.moveaxis(x, axis, -1)
    for b0, b1, b2, _a0, a1, a2 in sos:
        z1 = np.zeros(y.shape[:-1])
        z2 = np.zeros(y.shape[:-1])
        out = np.empty(y.shape, dtype=np.result_type(y, sos))
        for n in range(y.shape[-1]):
            xn = y[..., n]
            yn = b0 * xn + z1
            z1 = b1 * xn - a1 * yn + z2
            z2 = b2 * xn - a2 * yn
            out[..., n] = yn
        y = out
    return np.moveaxis(y, -1, axis)


class Filter:
    def __init__(self, N, Wn, btype="bandpass"):
        self._filt_args = (N, Wn, btype)

    def __call__(self, state):
        x, meta = state["X"]
        sos = butter_bandpass_sos(self._filt_args[0], self._filt_args[1], fs=meta["trace_sampling_rate_hz"])
        state["X"] = (sosfilt(sos, x, axis=-1), meta)


class ProbabilisticLabeller:
    def __init__(self, sigma=20):
        self.sigma = sigma

    def __call__(self, state):
        x, meta = state["X"]
        n = x.shape[-1]
        y = np.zeros((3, n), dtype=np.float32)
        for i, key in enumerate(PHASES):
            y[i] = np.exp(-((np.arange(n) - meta[key]) ** 2) / (2 * self.sigma**2))
        y[2] = np.clip(1 - y[0] - y[1], 0, 1)
        state["y"] = (y, meta)


class GenericGenerator(Dataset):
    def __init__(self, waveforms, metadata):
        self.waveforms, self.metadata, self.augmentations = waveforms, metadata, []

    def add_augmentations(self, augmentations):
        self.augmentations.extend(augmentations)

    def __len__(self):
        return len(self.waveforms)

    def __getitem__(self, idx):
        state = {"X": (self.waveforms[idx], dict(self.metadata[idx]))}
        for aug in self.augmentations:
            aug(state)
        return {k: v[0] for k, v in state.items()}


def synthetic_events(n, rng, length=6000):
    waves, metas = [], []
    for _ in range(n):
        p = int(rng.integers(1500, 3000))
        s = p + int(rng.integers(200, 900))
        w = rng.normal(0, 0.05, (3, length))
        t = np.arange(length)
        for onset, amp, f in ((p, 1.0, 8.0), (s, 2.0, 4.0)):
            env = (t >= onset) * np.exp(-(t - onset).clip(0) / 300)
            w += amp * env * np.sin(2 * np.pi * f * t / SR + rng.uniform(0, 6, (3, 1)))
        waves.append(w.astype(np.float32))  # waveforms stored as float32, like SeisBench's hdf5 files
        metas.append({"trace_p_arrival_sample": p, "trace_s_arrival_sample": s, "trace_sampling_rate_hz": SR})
    return waves, metas


class PhaseNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(3, ch, 7, padding=3), nn.ReLU(), nn.Conv1d(ch, ch, 7, stride=4, padding=3), nn.ReLU())
        self.dec = nn.Sequential(nn.ConvTranspose1d(ch, ch, 4, stride=4), nn.ReLU(), nn.Conv1d(ch, 3, 7, padding=3))

    def forward(self, x):
        y = self.dec(self.enc(x))[..., : x.shape[-1]]  # fails-here
        return torch.softmax(y, dim=1)


rng = np.random.default_rng(0)
np.random.seed(0)
waves, metas = synthetic_events(16, rng)
train_generator = GenericGenerator(waves, metas)
augmentations = [
    WindowAroundSample(list(PHASES), samples_before=3000, windowlen=6000),
    RandomWindow(windowlen=3001),
    Normalize(demean_axis=-1, amp_norm_axis=-1),
    ChangeDtype(np.float32),  # root-cause-alt
    Filter(N=3, Wn=np.array([2.0, 25.0], dtype=np.float32), btype="bandpass"),  # root-cause
    ProbabilisticLabeller(sigma=20),
]
train_generator.add_augmentations(augmentations)
train_loader = DataLoader(train_generator, batch_size=8, shuffle=True)

model = PhaseNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def loss_fn(y_pred, y_true, eps=1e-5):
    h = y_true * torch.log(y_pred + eps)
    return -h.mean(-1).sum(-1).mean()


for epoch in range(2):
    for batch in train_loader:
        pred = model(batch["X"])
        loss = loss_fn(pred, batch["y"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
