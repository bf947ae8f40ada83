"""Kaldi-compatibility check of a hand-written Kaldi-style MFCC front end (re-typed from torchaudio.compliance.kaldi: framing, povey window, pre-emphasis, rFFT power spectrum, mel banks, log, DCT, liftering) run for float32 and float64 waveforms, as the migrated test does; fbank already follows the waveform's dtype, but mfcc builds its DCT matrix with the default dtype and the float64 run fails at the cepstral matmul
source: https://github.com/pytorch/audio/pull/681
reported-error: "This should resolve `RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #3 'mat2' in call to _th_addmm_out`" (maintainer's patch for the kaldi mfcc test migration: dct_matrix = _get_dct_matrix(num_ceps, num_mel_bins).to(dtype=dtype, device=device))
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 108
root-cause: line 107
expect: DG004
"""
import math

import numpy as np
import torch

MILLISECONDS_TO_SECONDS = 0.001


def _get_epsilon(device, dtype):
    return torch.tensor(torch.finfo(torch.float).eps, device=device, dtype=dtype)


def _next_power_of_2(x):
    return 1 if x == 0 else 2 ** (x - 1).bit_length()


def _get_strided(waveform, window_size, window_shift):
    m = 1 + (waveform.size(0) - window_size) // window_shift  # snip_edges=True
    return waveform.as_strided((m, window_size), (window_shift * waveform.stride(0), waveform.stride(0)))


def _feature_window_function(window_size, device, dtype):  # povey: like hanning but goes to zero at edges
    return torch.hann_window(window_size, periodic=False, device=device, dtype=dtype).pow(0.85)


def mel_scale(freq):
    return 1127.0 * (1.0 + freq / 700.0).log()


def get_mel_banks(num_bins, window_length_padded, sample_freq, low_freq, high_freq):
    num_fft_bins = window_length_padded / 2
    nyquist = 0.5 * sample_freq
    if high_freq <= 0.0:
        high_freq += nyquist
    fft_bin_width = sample_freq / window_length_padded
    mel_low_freq, mel_high_freq = 1127.0 * math.log(1.0 + low_freq / 700.0), 1127.0 * math.log(1.0 + high_freq / 700.0)
    mel_freq_delta = (mel_high_freq - mel_low_freq) / (num_bins + 1)
    bin = torch.arange(num_bins).unsqueeze(1)
    left_mel = mel_low_freq + bin * mel_freq_delta
    center_mel = mel_low_freq + (bin + 1.0) * mel_freq_delta
    right_mel = mel_low_freq + (bin + 2.0) * mel_freq_delta
    mel = mel_scale(fft_bin_width * torch.arange(num_fft_bins)).unsqueeze(0)
    up_slope = (mel - left_mel) / (center_mel - left_mel)
    down_slope = (right_mel - mel) / (right_mel - center_mel)
    return torch.max(torch.zeros(1), torch.min(up_slope, down_slope))  # size (num_bins, num_fft_bins)


def fbank(waveform, frame_length=25.0, frame_shift=10.0, sample_frequency=16000.0, num_mel_bins=23,
          preemphasis_coefficient=0.97, low_freq=20.0, high_freq=0.0, energy_floor=1.0, use_energy=False):
    device, dtype = waveform.device, waveform.dtype
    waveform = waveform[0]
    window_shift = int(sample_frequency * frame_shift * MILLISECONDS_TO_SECONDS)
    window_size = int(sample_frequency * frame_length * MILLISECONDS_TO_SECONDS)
    padded_window_size = _next_power_of_2(window_size)
    strided_input = _get_strided(waveform, window_size, window_shift)
    strided_input = strided_input - strided_input.mean(dim=1, keepdim=True)  # remove_dc_offset
    signal_log_energy = torch.max(strided_input.pow(2).sum(1), _get_epsilon(device, dtype)).log()  # raw_energy
    signal_log_energy = torch.max(signal_log_energy, torch.tensor(math.log(energy_floor), device=device, dtype=dtype))
    offset = torch.nn.functional.pad(strided_input.unsqueeze(0), (1, 0), mode="replicate").squeeze(0)
    strided_input = strided_input - preemphasis_coefficient * offset[:, :-1]
    strided_input = strided_input * _feature_window_function(window_size, device, dtype).unsqueeze(0)
    strided_input = torch.nn.functional.pad(strided_input, (0, padded_window_size - window_size))
    spectrum = torch.fft.rfft(strided_input).abs().pow(2.0)  # power spectrum
    mel_energies = get_mel_banks(num_mel_bins, padded_window_size, sample_frequency, low_freq, high_freq)
    mel_energies = mel_energies.to(device=device, dtype=dtype)
    mel_energies = torch.nn.functional.pad(mel_energies, (0, 1), mode="constant", value=0)
    mel_energies = torch.mm(spectrum, mel_energies.T)
    mel_energies = torch.max(mel_energies, _get_epsilon(device, dtype)).log()
    if use_energy:
        mel_energies = torch.cat((signal_log_energy.unsqueeze(1), mel_energies), dim=1)
    return mel_energies


def create_dct(n_mfcc, n_mels):  # torchaudio.functional.create_dct(norm="ortho")
    n = torch.arange(float(n_mels))
    k = torch.arange(float(n_mfcc)).unsqueeze(1)
    dct = torch.cos(math.pi / float(n_mels) * (n + 0.5) * k)
    dct[0] *= 1.0 / math.sqrt(2.0)
    dct *= math.sqrt(2.0 / float(n_mels))
    return dct.t()


def _get_dct_matrix(num_ceps, num_mel_bins):
    dct_matrix = create_dct(num_mel_bins, num_mel_bins)
    dct_matrix[:, 0] = math.sqrt(1 / float(num_mel_bins))
    return dct_matrix[:, :num_ceps]


def _get_lifter_coeffs(num_ceps, cepstral_lifter):
    i = torch.arange(num_ceps)
    return 1.0 + 0.5 * cepstral_lifter * torch.sin(math.pi * i / cepstral_lifter)


def mfcc(waveform, num_ceps=13, num_mel_bins=23, cepstral_lifter=22.0, use_energy=True, **kwargs):
    assert num_ceps <= num_mel_bins
    feature = fbank(waveform, num_mel_bins=num_mel_bins, use_energy=use_energy, **kwargs)
    if use_energy:
        signal_log_energy = feature[:, 0]
        feature = feature[:, 1:]
    dct_matrix = _get_dct_matrix(num_ceps, num_mel_bins)  # root-cause
    feature = feature.matmul(dct_matrix)  # fails-here
    if cepstral_lifter != 0.0:
        feature *= _get_lifter_coeffs(num_ceps, cepstral_lifter).unsqueeze(0)
    if use_energy:
        feature[:, 0] = signal_log_energy
    return feature


def reference_mfcc(x, sr=16000, num_ceps=13, num_mel_bins=23, lifter=22.0):
    """NumPy float64 reference standing in for Kaldi's compute-mfcc-feats output."""
    win, shift, nfft = int(0.025 * sr), int(0.010 * sr), 512
    frames = np.stack([x[i:i + win] for i in range(0, len(x) - win + 1, shift)])
    frames = frames - frames.mean(1, keepdims=True)
    log_e = np.log(np.maximum((frames**2).sum(1), max(np.finfo(np.float32).eps, 1.0)))
    frames = frames - 0.97 * np.concatenate([frames[:, :1], frames[:, :-1]], 1)
    frames = frames * (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(win) / (win - 1))) ** 0.85
    spec = np.abs(np.fft.rfft(frames, nfft)) ** 2
    banks = get_mel_banks(num_mel_bins, nfft, float(sr), 20.0, 0.0).double().numpy()
    mel = np.log(np.maximum(spec @ np.pad(banks, ((0, 0), (0, 1))).T, np.finfo(np.float32).eps))
    dct = _get_dct_matrix(num_ceps, num_mel_bins).double().numpy()
    ceps = (mel @ dct) * (1 + 0.5 * lifter * np.sin(np.pi * np.arange(num_ceps) / lifter))
    ceps[:, 0] = log_e
    return ceps


rng = np.random.default_rng(0)
t = np.arange(16000) / 16000
signal = 0.3 * np.sin(2 * np.pi * 440 * t) + 0.2 * np.sin(2 * np.pi * 1250 * t) + 0.01 * rng.standard_normal(t.size)
expected = reference_mfcc(signal)

for dtype in (torch.float32, torch.float64):  # TestKaldi_CPU_Float32 / TestKaldi_CPU_Float64
    waveform = torch.from_numpy(signal).to(dtype).unsqueeze(0)
    result = mfcc(waveform, sample_frequency=16000.0)
    err = np.abs(result.double().numpy() - expected).max()
    print(f"{dtype}: mfcc {tuple(result.shape)} {result.dtype}, max abs error vs reference {err:.2e}")
    assert result.dtype == dtype and err < (1e-2 if dtype == torch.float32 else 1e-5)
