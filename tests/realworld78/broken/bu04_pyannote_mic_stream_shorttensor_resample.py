"""Live speaker-activity segmentation of a microphone stream (pyannote-style Pipeline and Audio IO re-typed, with torchaudio's sinc resampler as a conv1d filter bank): the 44.1 kHz blocks from a sounddevice-like InputStream are transposed and turned into a torch.ShortTensor before being passed as {"waveform", "sample_rate"}, and Audio.downmix_and_resample convolves the int16 waveform with the float32 low-pass kernels on the way to 16 kHz
source: https://github.com/pyannote/pyannote-audio/issues/958
reported-error: "mic_data = torch.from_numpy(mic_data); mic_data = mic_data.type(torch.ShortTensor) ... pyannote/audio/core/io.py, line 214, in downmix_and_resample: waveform = torchaudio.functional.resample( ... _apply_sinc_resample_kernel: resampled = torch.nn.functional.conv1d(waveform[:, None], kernel, stride=orig_freq) RuntimeError: expected scalar type Short but found Float"
outcome: RuntimeError: expected scalar type Short but found Float at line 44
root-cause: line 150
expect: DG005
"""
import math

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


# --- torchaudio.functional.resample (re-typed, sinc_interpolation with a Hann window) ---
def _get_sinc_resample_kernel(orig_freq, new_freq, gcd, lowpass_filter_width=6, rolloff=0.99, device=torch.device("cpu"), dtype=None):
    orig_freq, new_freq = int(orig_freq) // gcd, int(new_freq) // gcd
    base_freq = min(orig_freq, new_freq) * rolloff
    width = math.ceil(lowpass_filter_width * orig_freq / base_freq)
    idx_dtype = dtype if dtype is not None else torch.float64
    idx = torch.arange(-width, width + orig_freq, device=device, dtype=idx_dtype)
    kernels = []
    for i in range(new_freq):
        t = (-i / new_freq + idx / orig_freq) * base_freq
        t = t.clamp_(-lowpass_filter_width, lowpass_filter_width)
        window = torch.cos(t * math.pi / lowpass_filter_width / 2) ** 2
        t *= math.pi
        kernel = torch.where(t == 0, torch.tensor(1.0).to(t), torch.sin(t) / t)
        kernels.append(kernel.mul_(window))
    kernels = torch.stack(kernels).view(new_freq, 1, -1).mul_(base_freq / orig_freq)
    if dtype is None:
        kernels = kernels.to(dtype=torch.float32)
    return kernels, width


def _apply_sinc_resample_kernel(waveform, orig_freq, new_freq, gcd, kernel, width):
    orig_freq, new_freq = int(orig_freq) // gcd, int(new_freq) // gcd
    shape = waveform.size()
    waveform = waveform.view(-1, shape[-1])
    num_wavs, length = waveform.shape
    waveform = torch.nn.functional.pad(waveform, (width, width + orig_freq))
    resampled = torch.nn.functional.conv1d(waveform[:, None], kernel, stride=orig_freq)  # fails-here
    resampled = resampled.transpose(1, 2).reshape(num_wavs, -1)
    target_length = int(math.ceil(new_freq * length / orig_freq))
    return resampled[..., :target_length].view(shape[:-1] + (target_length,))


def resample(waveform, orig_freq, new_freq):
    if orig_freq == new_freq:
        return waveform
    gcd = math.gcd(int(orig_freq), int(new_freq))
    kernel, width = _get_sinc_resample_kernel(orig_freq, new_freq, gcd, device=waveform.device, dtype=waveform.dtype)
    return _apply_sinc_resample_kernel(waveform, orig_freq, new_freq, gcd, kernel, width)


# --- pyannote.audio.core.io.Audio and a segmentation Pipeline (re-typed, simplified) ---
class Audio:
    def __init__(self, sample_rate=None, mono=True):
        self.sample_rate, self.mono = sample_rate, mono

    @staticmethod
    def validate_file(file):
        waveform = file["waveform"]
        if len(waveform.shape) != 2 or waveform.shape[0] > waveform.shape[1]:
            raise ValueError("'waveform' must be provided as a (channel, time) torch Tensor.")
        if file.get("sample_rate") is None:
            raise ValueError("'waveform' must be provided with their 'sample_rate'.")
        file.setdefault("uri", "waveform")
        return file

    def downmix_and_resample(self, waveform, sample_rate):
        if self.mono and waveform.shape[0] > 1:
            waveform = waveform.mean(dim=0, keepdim=True)
        if (self.sample_rate is not None) and (self.sample_rate != sample_rate):
            waveform = resample(waveform, sample_rate, self.sample_rate)
            sample_rate = self.sample_rate
        return waveform, sample_rate

    def __call__(self, file):
        file = self.validate_file(file)
        return self.downmix_and_resample(file["waveform"], file["sample_rate"])


class SegmentationModel(nn.Module):
    """SincNet-like front end (learned band-pass conv1d) + LSTM -> per-frame speech activity."""

    def __init__(self):
        super().__init__()
        self.frontend = nn.Sequential(nn.Conv1d(1, 16, 251, stride=10), nn.MaxPool1d(3), nn.LeakyReLU(),
                                      nn.Conv1d(16, 16, 5), nn.MaxPool1d(3), nn.LeakyReLU())
        self.lstm = nn.LSTM(16, 16, batch_first=True)
        self.head = nn.Linear(16, 1)

    def forward(self, waveforms):  # (batch, 1, samples) at 16 kHz
        h, _ = self.lstm(self.frontend(waveforms).transpose(1, 2))
        return torch.sigmoid(self.head(h)).squeeze(-1)


class SpeakerSegmentation:
    def __init__(self, model):
        self.model, self._audio = model, Audio(sample_rate=16000, mono=True)

    def __call__(self, file):
        waveform, _ = self._audio(file)
        with torch.no_grad():
            activity = self.model(waveform[None])
        return (activity[0] > 0.5).float().mean().item()


def synthetic_speech(n, sr, rng, speech=True):
    t = np.arange(n) / sr
    env = (np.sin(2 * np.pi * 4 * t) > -0.2) if speech else np.zeros(n)
    voiced = 0.3 * env * np.sin(2 * np.pi * rng.uniform(120, 220) * t) * (1 + 0.3 * np.sin(2 * np.pi * 900 * t))
    return (voiced + 0.01 * rng.standard_normal(n)).astype(np.float32)


# quick fit of the segmentation model on 16 kHz synthetic speech / silence
rng = np.random.default_rng(0)
model = SegmentationModel()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(40):
    is_speech = step % 2 == 0
    x = torch.from_numpy(synthetic_speech(16000, 16000, rng, is_speech))[None, None]
    pred = model(x)
    loss = nn.functional.binary_cross_entropy(pred, torch.full_like(pred, float(is_speech)))
    opt.zero_grad()
    loss.backward()
    opt.step()
SPEAKER_SEGMENTATION = SpeakerSegmentation(model.eval())


class InputStream:
    """Stand-in for sounddevice.InputStream(channels=1, samplerate=44100): float32 blocks of shape (frames, channels)."""

    def __init__(self, samplerate, blocksize, channels=1):
        self.samplerate, self.blocksize, self.channels = samplerate, blocksize, channels

    def read(self, frames):
        return synthetic_speech(frames, self.samplerate, rng)[:, None].repeat(self.channels, axis=1), False


samplerate = 44100
stream = InputStream(samplerate=samplerate, blocksize=samplerate)
for block in range(3):
    mic_data, overflowed = stream.read(samplerate)
    mic_data = mic_data.transpose()
    mic_data = torch.from_numpy(mic_data)
    mic_data = mic_data.type(torch.ShortTensor)  # root-cause
    speech_ratio = SPEAKER_SEGMENTATION({"waveform": mic_data, "sample_rate": samplerate})
    print(f"block {block}: speech in {100 * speech_ratio:.0f}% of frames")
