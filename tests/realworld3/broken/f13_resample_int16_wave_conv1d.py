"""torchaudio-style Resample on a raw int16 waveform (sox load with normalize=False)
source: https://github.com/pytorch/audio/issues/2294
reported-error: RuntimeError from F.conv1d: int16 (short) waveform vs float32 resampling kernel
outcome: RuntimeError: expected scalar type Short but found Float at line 43
root-cause: line 53
expect: DG004
"""
import math

import numpy as np
import torch
import torch.nn.functional as F


def _get_sinc_resample_kernel(orig_freq, new_freq, lowpass_filter_width=6, dtype=torch.float32):
    gcd = math.gcd(orig_freq, new_freq)
    orig_freq //= gcd
    new_freq //= gcd
    base_freq = min(orig_freq, new_freq) * 0.99
    width = math.ceil(lowpass_filter_width * orig_freq / base_freq)
    idx = torch.arange(-width, width + orig_freq, dtype=dtype)[None, None] / orig_freq
    t = torch.arange(0, -new_freq, -1, dtype=dtype)[:, None, None] / new_freq + idx
    t *= base_freq
    t = t.clamp_(-lowpass_filter_width, lowpass_filter_width)
    window = torch.cos(t * math.pi / lowpass_filter_width / 2) ** 2
    t *= math.pi
    scale = base_freq / orig_freq
    kernels = torch.where(t == 0, torch.tensor(1.0).to(t), t.sin() / t)
    kernels *= window * scale
    return kernels, width, orig_freq, new_freq


class Resample(torch.nn.Module):
    def __init__(self, orig_freq=16000, new_freq=16000):
        super().__init__()
        self.kernel, self.width, self.o, self.n = _get_sinc_resample_kernel(orig_freq, new_freq)

    def forward(self, waveform):
        shape = waveform.size()
        waveform = waveform.view(-1, shape[-1])
        num_wavs, length = waveform.shape
        waveform = F.pad(waveform, (self.width, self.width + self.o))
        resampled = F.conv1d(waveform[:, None], self.kernel, stride=self.o)  # fails-here
        resampled = resampled.transpose(1, 2).reshape(num_wavs, -1)
        target_length = int(math.ceil(self.n * length / self.o))
        return resampled[..., :target_length].view(shape[:-1] + resampled.shape[-1:])


def sox_load(path, normalize=False):
    # stand-in for sox_io_backend.load(wav, normalize=False): returns the raw PCM int16 samples
    rng = np.random.default_rng(0)
    pcm = (rng.standard_normal((1, 48000)) * 3000).astype(np.int16)
    return torch.from_numpy(pcm), 48000  # root-cause


wav = 'example.wav'  # mono, sample_rate=48000
waveforms, sample_rate = sox_load(wav, normalize=False)
resample = 16000
if sample_rate != resample:
    audio = Resample(sample_rate, resample)(waveforms)
    print(audio.shape, audio.dtype)
