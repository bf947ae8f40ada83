"""X-vector extraction for an AISHELL-3 TTS recipe in the style of espnet's pyscripts/utils/extract_xvectors.py (speechbrain toolkit): SoundScpReader returns each 44.1 kHz utterance as int16 PCM, the amplitude normalisation wav / amax makes it a float64 array, torch.from_numpy keeps float64, and speechbrain's AudioNormalizer resamples it to 16 kHz with its float32 polyphase filter weights in conv1d
source: https://github.com/espnet/espnet/issues/5099
reported-error: "File pyscripts/utils/extract_xvectors.py, line 107, in __call__: wav = self.audio_norm(torch.from_numpy(wav), in_sr).to(self.device) ... speech_augmentation.py, line 673, in _perform_resample: conv_wave = torch.nn.functional.conv1d( RuntimeError: expected scalar type Double but found Float" (fixed by PR #5112 "Dtype for Speechbrain")
outcome: RuntimeError: expected scalar type Double but found Float at line 57
root-cause: line 196
expect: DG004
"""
import math
import os
import tempfile
import wave

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


class Resample(torch.nn.Module):
    """speechbrain.processing.speech_augmentation.Resample (sinc interpolation, from torchaudio's kaldi code)."""

    def __init__(self, orig_freq=16000, new_freq=16000, lowpass_filter_width=6):
        super().__init__()
        self.orig_freq, self.new_freq, self.lowpass_filter_width = orig_freq, new_freq, lowpass_filter_width
        base_freq = math.gcd(self.orig_freq, self.new_freq)
        self.conv_stride = self.orig_freq // base_freq
        self.output_samples = self.conv_transpose_stride = self.new_freq // base_freq

    def forward(self, waveforms):
        if not hasattr(self, "first_indices"):
            self._indices_and_weights(waveforms)
        if self.orig_freq == self.new_freq:
            return waveforms
        waveforms = waveforms.unsqueeze(1)
        return self._perform_resample(waveforms).squeeze(1)

    def _perform_resample(self, waveforms):
        batch_size, num_channels, wave_len = waveforms.size()
        window_size = self.weights.size(1)
        tot_output_samp = self._output_samples(wave_len)
        resampled_waveform = torch.zeros((batch_size, num_channels, tot_output_samp), device=waveforms.device)
        self.weights = self.weights.to(waveforms.device)
        eye = torch.eye(num_channels, device=waveforms.device).unsqueeze(2)
        for i in range(self.first_indices.size(0)):
            wave_to_conv = waveforms
            first_index = int(self.first_indices[i].item())
            if first_index >= 0:
                wave_to_conv = wave_to_conv[..., first_index:]
            max_index = (tot_output_samp - 1) // self.output_samples
            end_index = max_index * self.conv_stride + window_size
            current_wave_len = wave_len - first_index
            right_padding = max(0, end_index + 1 - current_wave_len)
            left_padding = max(0, -first_index)
            wave_to_conv = torch.nn.functional.pad(wave_to_conv, (left_padding, right_padding))
            conv_wave = torch.nn.functional.conv1d(  # fails-here
                input=wave_to_conv, weight=self.weights[i].repeat(num_channels, 1, 1),
                stride=self.conv_stride, groups=num_channels)
            dilated_conv_wave = torch.nn.functional.conv_transpose1d(conv_wave, eye, stride=self.conv_transpose_stride)
            left_padding = i
            previous_padding = left_padding + dilated_conv_wave.size(-1)
            right_padding = max(0, tot_output_samp - previous_padding)
            dilated_conv_wave = torch.nn.functional.pad(dilated_conv_wave, (left_padding, right_padding))
            resampled_waveform += dilated_conv_wave[..., :tot_output_samp]
        return resampled_waveform

    def _output_samples(self, input_num_samp):
        samp_in, samp_out = int(self.orig_freq), int(self.new_freq)
        tick_freq = abs(samp_in * samp_out) // math.gcd(samp_in, samp_out)
        interval_length = input_num_samp * (tick_freq // samp_in)
        if interval_length <= 0:
            return 0
        ticks_per_output_period = tick_freq // samp_out
        last_output_samp = interval_length // ticks_per_output_period
        if last_output_samp * ticks_per_output_period == interval_length:
            last_output_samp -= 1
        return last_output_samp + 1

    def _indices_and_weights(self, waveforms):
        min_freq = min(self.orig_freq, self.new_freq)
        lowpass_cutoff = 0.99 * 0.5 * min_freq
        window_width = self.lowpass_filter_width / (2.0 * lowpass_cutoff)
        output_t = torch.arange(start=0.0, end=self.output_samples, device=waveforms.device)
        output_t /= self.new_freq
        min_t = output_t - window_width
        max_t = output_t + window_width
        min_input_index = torch.ceil(min_t * self.orig_freq)
        max_input_index = torch.floor(max_t * self.orig_freq)
        num_indices = max_input_index - min_input_index + 1
        max_weight_width = num_indices.max()
        j = torch.arange(max_weight_width, device=waveforms.device)
        input_index = min_input_index.unsqueeze(1) + j.unsqueeze(0)
        delta_t = (input_index / self.orig_freq) - output_t.unsqueeze(1)
        weights = torch.zeros_like(delta_t)
        inside_window_indices = delta_t.abs().lt(window_width)
        weights[inside_window_indices] = 0.5 * (1 + torch.cos(
            2 * math.pi * lowpass_cutoff / self.lowpass_filter_width * delta_t[inside_window_indices]))
        t_eq_zero_indices = delta_t.eq(0.0)
        t_not_eq_zero_indices = ~t_eq_zero_indices
        weights[t_not_eq_zero_indices] *= torch.sin(
            2 * math.pi * lowpass_cutoff * delta_t[t_not_eq_zero_indices]) / (math.pi * delta_t[t_not_eq_zero_indices])
        weights[t_eq_zero_indices] *= 2 * lowpass_cutoff
        weights /= self.orig_freq
        self.first_indices = min_input_index
        self.weights = weights


class AudioNormalizer:
    """speechbrain.dataio.preprocess.AudioNormalizer: resample to 16 kHz, average channels to mono."""

    def __init__(self, sample_rate=16000, mix="avg-to-mono"):
        self.sample_rate, self.mix = sample_rate, mix
        self._cached_resample = Resample

    def __call__(self, audio, sample_rate):
        resampler = self._cached_resample(sample_rate, self.sample_rate)
        resampled = resampler(audio.unsqueeze(0)).squeeze(0)
        return resampled if resampled.dim() == 1 or self.mix == "keep" else torch.mean(resampled, 1)


class XVectorTDNN(nn.Module):
    """Stand-in for speechbrain's spkrec-xvect-voxceleb EncoderClassifier: log-mel fbank, TDNN, stats pooling."""

    def __init__(self, n_mels=24, dim=64, emb=32):
        super().__init__()
        self.register_buffer("window", torch.hann_window(400))
        freqs = torch.linspace(0, 8000, 201)
        centers = torch.linspace(0, 8000, n_mels + 2)
        self.register_buffer("mel_fb", torch.clamp(1 - (freqs[None] - centers[1:-1, None]).abs() / (centers[1] - centers[0]), min=0))
        self.tdnn = nn.Sequential(nn.Conv1d(n_mels, dim, 5, dilation=1), nn.ReLU(), nn.Conv1d(dim, dim, 3, dilation=2), nn.ReLU())
        self.embedding = nn.Linear(2 * dim, emb)

    def encode_batch(self, wavs):
        spec = torch.stft(wavs, 400, 160, window=self.window, return_complex=True).abs() ** 2
        feats = torch.log(self.mel_fb @ spec + 1e-6)
        h = self.tdnn(feats - feats.mean(-1, keepdim=True))
        return self.embedding(torch.cat([h.mean(-1), h.std(-1)], -1)).unsqueeze(1)


class XVExtractor:
    def __init__(self, device):
        self.device = device
        self.audio_norm = AudioNormalizer()
        self.model = XVectorTDNN().to(device).eval()

    def __call__(self, wav, in_sr):
        wav = self.audio_norm(torch.from_numpy(wav), in_sr).to(self.device)
        with torch.no_grad():
            embeds = self.model.encode_batch(wav[None]).detach().cpu().numpy()[0]
        return embeds


class SoundScpReader:
    """espnet2.fileio.sound_scp.SoundScpReader: returns (rate, int16 PCM array) for a wav.scp key."""

    def __init__(self, scp):
        self.data = dict(line.split(maxsplit=1) for line in open(scp).read().splitlines())

    def __getitem__(self, key):
        with wave.open(self.data[key], "rb") as w:
            return w.getframerate(), np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)


# ---- an AISHELL-3-like data dir: 44.1 kHz 16-bit wavs, wav.scp and spk2utt ----
data_dir = tempfile.mkdtemp()
out_folder = os.path.join(data_dir, "xvector")
spk2utt = {}
with open(os.path.join(data_dir, "wav.scp"), "w") as scp:
    for s, f0 in (("SSB0005", 140.0), ("SSB0009", 230.0)):
        spk2utt[s] = []
        for u in range(2):
            utt = f"{s}000{u}"
            t = np.arange(int(0.5 * 44100)) / 44100
            voice = sum(np.sin(2 * np.pi * f0 * k * t) / k for k in range(1, 6)) * (0.6 + 0.4 * np.sin(2 * np.pi * 4 * t))
            pcm = (voice / 3 * 12000 + rng.normal(0, 200, len(t))).astype(np.int16)
            path = os.path.join(data_dir, f"{utt}.wav")
            with wave.open(path, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(44100)
                w.writeframes(pcm.tobytes())
            scp.write(f"{utt} {path}\n")
            spk2utt[s].append(utt)

wav_scp = SoundScpReader(os.path.join(data_dir, "wav.scp"))
os.makedirs(out_folder, exist_ok=True)
xv_extractor = XVExtractor("cpu")
spk_xvectors = {}
for speaker in spk2utt:
    xvectors = list()
    for utt in spk2utt[speaker]:
        in_sr, wav = wav_scp[utt]
        # Amp Normalization -1 ~ 1
        amax = np.amax(np.absolute(wav))
        wav = wav / amax  # root-cause
        embeds = xv_extractor(wav, in_sr)
        np.save(os.path.join(out_folder, f"{utt}.npy"), np.squeeze(embeds))
        xvectors.append(embeds)
    spk_xvectors[speaker] = np.mean(np.stack(xvectors, 0), 0)
    np.save(os.path.join(out_folder, f"{speaker}_spk.npy"), spk_xvectors[speaker])
a, b = (v.ravel() for v in spk_xvectors.values())
print("speakers:", list(spk_xvectors), "cosine between speaker x-vectors:",
      round(float(a @ b / np.linalg.norm(a) / np.linalg.norm(b)), 3))
