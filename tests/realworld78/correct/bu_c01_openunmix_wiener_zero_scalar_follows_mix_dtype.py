"""The open-unmix-style separator of bu01 (sigsep/open-unmix-pytorch #89) with the fix of PR #94: expectation_maximization writes its zero scalar with dtype=x.dtype, so the float64 Wiener refinement of the float32 network's magnitudes (cast with .double()) runs on the view_as_real mixture STFT and the vocals are resynthesised with istft; the float32 0-dim R[j]/weight accumulators, promoted to float64 by the first addition, are kept
source: https://github.com/sigsep/open-unmix-pytorch/issues/89
reported-error: (none filed; the fixed situation of bu01)
outcome: ok
root-cause: -
expect: none
"""
from typing import Optional

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
SR, N_FFT, HOP = 8000, 256, 64


# --- openunmix.filtering (re-typed: complex numbers as a trailing dimension of size 2) ---
def _norm(x):
    return torch.abs(x[..., 0]) ** 2 + torch.abs(x[..., 1]) ** 2


def _mul_add(a, b, out: Optional[torch.Tensor] = None):
    target_shape = torch.Size([max(sa, sb) for (sa, sb) in zip(a.shape, b.shape)])
    if out is None or out.shape != target_shape:
        out = torch.zeros(target_shape, dtype=a.dtype, device=a.device)
    out[..., 0] = out[..., 0] + (a[..., 0] * b[..., 0] - a[..., 1] * b[..., 1])
    out[..., 1] = out[..., 1] + (a[..., 0] * b[..., 1] + a[..., 1] * b[..., 0])
    return out


def _conj(z):
    out = torch.zeros_like(z)
    out[..., 0] = z[..., 0]
    out[..., 1] = -z[..., 1]
    return out


def _invert(M):
    # nb_channels == 1: element-wise complex inverse
    ez = _norm(M)
    out = torch.zeros_like(M)
    out[..., 0] = M[..., 0] / ez
    out[..., 1] = -M[..., 1] / ez
    return out


def _covariance(y_j):
    (nb_frames, nb_bins, nb_channels) = y_j.shape[:-1]
    Cj = torch.zeros((nb_frames, nb_bins, nb_channels, nb_channels, 2), dtype=y_j.dtype, device=y_j.device)
    for index in torch.cartesian_prod(torch.arange(nb_channels), torch.arange(nb_channels)):
        Cj[:, :, index[0], index[1], :] = _mul_add(y_j[:, :, index[0], :], _conj(y_j[:, :, index[1], :]), Cj[:, :, index[0], index[1], :])
    return Cj


def expectation_maximization(y, x, iterations=2, eps=1e-10, batch_size=200):
    (nb_frames, nb_bins, nb_channels) = x.shape[:-1]
    nb_sources = y.shape[-1]
    regularization = torch.cat(
        (torch.eye(nb_channels, dtype=x.dtype, device=x.device)[..., None],
         torch.zeros((nb_channels, nb_channels, 1), dtype=x.dtype, device=x.device)), dim=2)
    regularization = torch.sqrt(torch.as_tensor(eps)) * regularization[None, None, ...].expand((-1, nb_bins, -1, -1, -1))
    R = [torch.zeros((nb_bins, nb_channels, nb_channels, 2), dtype=x.dtype, device=x.device) for j in range(nb_sources)]
    for it in range(iterations):
        v = torch.mean(torch.abs(y[..., 0, :]) ** 2 + torch.abs(y[..., 1, :]) ** 2, dim=-2)
        for j in range(nb_sources):
            R[j] = torch.tensor(0.0, device=x.device)
            weight = torch.tensor(eps, device=x.device)
            pos = 0
            while pos < nb_frames:
                t = torch.arange(pos, min(nb_frames, pos + batch_size))
                pos = int(t[-1]) + 1
                R[j] = R[j] + torch.sum(_covariance(y[t, ..., j]), dim=0)
                weight = weight + torch.sum(v[t, ..., j], dim=0)
            R[j] = R[j] / weight[..., None, None, None]
        pos = 0
        while pos < nb_frames:
            t = torch.arange(pos, min(nb_frames, pos + batch_size))
            pos = int(t[-1]) + 1
            y[t, ...] = torch.tensor(0.0, device=x.device, dtype=x.dtype)
            Cxx = regularization
            for j in range(nb_sources):
                Cxx = Cxx + (v[t, ..., j, None, None, None] * R[j][None, ...].clone())
            inv_Cxx = _invert(Cxx)
            for j in range(nb_sources):
                gain = _mul_add(R[j][None, :, 0, 0, :], inv_Cxx[:, :, 0, 0, :])[:, :, None, None, :]
                gain = gain * v[t, ..., None, None, None, j]
                y[t, ..., j] = _mul_add(gain[..., 0, :], x[t, ..., 0, None, :], y[t, ..., j])
    return y, v, R


def wiener(targets_spectrograms, mix_stft, iterations=1, scale_factor=10.0, eps=1e-10):
    angle = torch.atan2(mix_stft[..., 1], mix_stft[..., 0])[..., None]
    nb_sources = targets_spectrograms.shape[-1]
    y = torch.zeros(mix_stft.shape + (nb_sources,), dtype=mix_stft.dtype, device=mix_stft.device)
    y[..., 0, :] = targets_spectrograms * torch.cos(angle)
    y[..., 1, :] = targets_spectrograms * torch.sin(angle)
    max_abs = torch.max(torch.as_tensor(1.0, dtype=mix_stft.dtype), torch.sqrt(_norm(mix_stft)).max() / scale_factor)
    y = expectation_maximization(y / max_abs, mix_stft / max_abs, iterations, eps=eps)[0]
    return y * max_abs


# --- a small open-unmix-like separator (float32) trained on synthetic mixtures ---
class MaskNet(nn.Module):
    def __init__(self, nb_bins=N_FFT // 2 + 1, nb_sources=2, hidden=64):
        super().__init__()
        self.nb_sources = nb_sources
        self.fc = nn.Sequential(nn.Linear(nb_bins, hidden), nn.Tanh(), nn.Linear(hidden, nb_bins * nb_sources))

    def forward(self, mag):  # (frames, bins) -> (frames, bins, sources)
        masks = torch.softmax(self.fc(mag).view(mag.shape[0], -1, self.nb_sources), dim=-1)
        return masks * mag[..., None]


def make_pair(rng):
    t = np.arange(SR) / SR
    voice = 0.4 * np.sin(2 * np.pi * rng.uniform(200, 400) * t) * (1 + 0.5 * np.sin(2 * np.pi * 3 * t))
    accomp = 0.3 * np.sign(np.sin(2 * np.pi * rng.uniform(60, 120) * t)) + 0.05 * rng.standard_normal(SR)
    return voice.astype(np.float32), accomp.astype(np.float32)


def stft_mag(x):
    return torch.stft(x, N_FFT, HOP, window=torch.hann_window(N_FFT), return_complex=True).abs().T


rng = np.random.default_rng(0)
model = MaskNet()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(30):
    v, a = (torch.from_numpy(s) for s in make_pair(rng))
    est = model(stft_mag(v + a))
    loss = ((est - torch.stack([stft_mag(v), stft_mag(a)], dim=-1)) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"separator trained, last loss {loss.item():.4f}")

# separation of a new mixture: Wiener refinement in double precision (mono: nb_channels = 1)
v, a = (torch.from_numpy(s) for s in make_pair(rng))
mix = (v + a).double()
mix_c = torch.stft(mix, N_FFT, HOP, window=torch.hann_window(N_FFT, dtype=torch.float64), return_complex=True)
mix_stft = torch.view_as_real(mix_c.T.contiguous())[:, :, None, :]  # (frames, bins, 1, 2) float64
with torch.no_grad():
    targets = model(mix_c.abs().T.float()).double()[:, :, None, :]  # (frames, bins, 1, sources)
estimates = wiener(targets, mix_stft, iterations=1)
vocals = torch.istft(torch.view_as_complex(estimates[:, :, 0, :, 0].contiguous()).T, N_FFT, HOP,
                     window=torch.hann_window(N_FFT, dtype=torch.float64), length=mix.shape[0])
print("vocals SDR-ish:", float(10 * torch.log10((v.double() ** 2).sum() / ((v.double() - vocals) ** 2).sum())))
