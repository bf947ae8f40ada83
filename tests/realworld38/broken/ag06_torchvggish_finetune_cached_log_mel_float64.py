"""Fine-tuning VGGish on short labelled sound clips (harritaylor/torchvggish: vggish_input.waveform_to_examples computes NumPy log-mel patches with mel_features and, with return_tensor=True, returns torch.tensor(...)[:, None, :, :].float(); vggish.VGGish(preprocess=False) takes ready patches and runs VGG.forward): the clip dataset caches the patches as NumPy (return_tensor=False, so they are computed once) and hands each to the model with torch.from_numpy in __getitem__; mel_features works in float64 (np.fft.rfft, the float64 mel matrix, np.log), so the batches are float64 and the first float32 conv of VGGish fails
source: https://github.com/harritaylor/torchvggish/blob/f3f90969ce8fb77a05d984b892ddf662e8466377/torchvggish/vggish_input.py
reported-error: (none filed; upstream's tensor path ends in .float(); the fine-tuning dataset of the variant takes the NumPy path, which the docstring documents as returning np.array examples, and converts them itself)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 164
root-cause: line 251
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


# ---- torchvggish/vggish_params.py
NUM_FRAMES = 96  # Frames in input mel-spectrogram patch.
NUM_BANDS = 64  # Frequency bands in input mel-spectrogram patch.
EMBEDDING_SIZE = 128  # Size of embedding layer.
SAMPLE_RATE = 16000
STFT_WINDOW_LENGTH_SECONDS = 0.025
STFT_HOP_LENGTH_SECONDS = 0.010
NUM_MEL_BINS = NUM_BANDS
MEL_MIN_HZ = 125
MEL_MAX_HZ = 7500
LOG_OFFSET = 0.01  # Offset used for stabilized log of input mel-spectrogram.
EXAMPLE_WINDOW_SECONDS = 0.96  # Each example contains 96 10ms frames
EXAMPLE_HOP_SECONDS = 0.96  # with zero overlap.


# ---- torchvggish/mel_features.py
def frame(data, window_length, hop_length):
    num_samples = data.shape[0]
    num_frames = 1 + int(np.floor((num_samples - window_length) / hop_length))
    shape = (num_frames, window_length) + data.shape[1:]
    strides = (data.strides[0] * hop_length,) + data.strides
    return np.lib.stride_tricks.as_strided(data, shape=shape, strides=strides)


def periodic_hann(window_length):
    return 0.5 - (0.5 * np.cos(2 * np.pi / window_length *
                               np.arange(window_length)))


def stft_magnitude(signal, fft_length,
                   hop_length=None,
                   window_length=None):
    frames = frame(signal, window_length, hop_length)
    window = periodic_hann(window_length)
    windowed_frames = frames * window
    return np.abs(np.fft.rfft(windowed_frames, int(fft_length)))


_MEL_BREAK_FREQUENCY_HERTZ = 700.0
_MEL_HIGH_FREQUENCY_Q = 1127.0


def hertz_to_mel(frequencies_hertz):
    return _MEL_HIGH_FREQUENCY_Q * np.log(
        1.0 + (frequencies_hertz / _MEL_BREAK_FREQUENCY_HERTZ))


def spectrogram_to_mel_matrix(num_mel_bins=20,
                              num_spectrogram_bins=129,
                              audio_sample_rate=8000,
                              lower_edge_hertz=125.0,
                              upper_edge_hertz=3800.0):
    nyquist_hertz = audio_sample_rate / 2.
    if lower_edge_hertz < 0.0:
        raise ValueError("lower_edge_hertz %.1f must be >= 0" % lower_edge_hertz)
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" %
                         (lower_edge_hertz, upper_edge_hertz))
    if upper_edge_hertz > nyquist_hertz:
        raise ValueError("upper_edge_hertz %.1f is greater than Nyquist %.1f" %
                         (upper_edge_hertz, nyquist_hertz))
    spectrogram_bins_hertz = np.linspace(0.0, nyquist_hertz, num_spectrogram_bins)
    spectrogram_bins_mel = hertz_to_mel(spectrogram_bins_hertz)
    band_edges_mel = np.linspace(hertz_to_mel(lower_edge_hertz),
                                 hertz_to_mel(upper_edge_hertz), num_mel_bins + 2)
    mel_weights_matrix = np.empty((num_spectrogram_bins, num_mel_bins))
    for i in range(num_mel_bins):
        lower_edge_mel, center_mel, upper_edge_mel = band_edges_mel[i:i + 3]
        lower_slope = ((spectrogram_bins_mel - lower_edge_mel) /
                       (center_mel - lower_edge_mel))
        upper_slope = ((upper_edge_mel - spectrogram_bins_mel) /
                       (upper_edge_mel - center_mel))
        mel_weights_matrix[:, i] = np.maximum(0.0, np.minimum(lower_slope,
                                                              upper_slope))
    mel_weights_matrix[0, :] = 0.0
    return mel_weights_matrix


def log_mel_spectrogram(data,
                        audio_sample_rate=8000,
                        log_offset=0.0,
                        window_length_secs=0.025,
                        hop_length_secs=0.010,
                        **kwargs):
    window_length_samples = int(round(audio_sample_rate * window_length_secs))
    hop_length_samples = int(round(audio_sample_rate * hop_length_secs))
    fft_length = 2 ** int(np.ceil(np.log(window_length_samples) / np.log(2.0)))
    spectrogram = stft_magnitude(
        data,
        fft_length=fft_length,
        hop_length=hop_length_samples,
        window_length=window_length_samples)
    mel_spectrogram = np.dot(spectrogram, spectrogram_to_mel_matrix(
        num_spectrogram_bins=spectrogram.shape[1],
        audio_sample_rate=audio_sample_rate, **kwargs))
    return np.log(mel_spectrogram + log_offset)


# ---- torchvggish/vggish_input.py (resampy / soundfile not needed: the clips are made at 16 kHz)
def waveform_to_examples(data, sample_rate, return_tensor=True):
    # Convert to mono.
    if len(data.shape) > 1:
        data = np.mean(data, axis=1)
    # Resample to the rate assumed by VGGish.
    if sample_rate != SAMPLE_RATE:
        raise ValueError("resampy is not available here; give 16 kHz audio")

    # Compute log mel spectrogram features.
    log_mel = log_mel_spectrogram(
        data,
        audio_sample_rate=SAMPLE_RATE,
        log_offset=LOG_OFFSET,
        window_length_secs=STFT_WINDOW_LENGTH_SECONDS,
        hop_length_secs=STFT_HOP_LENGTH_SECONDS,
        num_mel_bins=NUM_MEL_BINS,
        lower_edge_hertz=MEL_MIN_HZ,
        upper_edge_hertz=MEL_MAX_HZ)

    # Frame features into examples.
    features_sample_rate = 1.0 / STFT_HOP_LENGTH_SECONDS
    example_window_length = int(round(
        EXAMPLE_WINDOW_SECONDS * features_sample_rate))
    example_hop_length = int(round(
        EXAMPLE_HOP_SECONDS * features_sample_rate))
    log_mel_examples = frame(
        log_mel,
        window_length=example_window_length,
        hop_length=example_hop_length)

    if return_tensor:
        log_mel_examples = torch.tensor(
            log_mel_examples, requires_grad=True)[:, None, :, :].float()

    return log_mel_examples


# ---- torchvggish/vggish.py
class VGG(nn.Module):
    def __init__(self, features):
        super(VGG, self).__init__()
        self.features = features
        self.embeddings = nn.Sequential(
            nn.Linear(512 * 4 * 6, 4096),
            nn.ReLU(True),
            nn.Linear(4096, 4096),
            nn.ReLU(True),
            nn.Linear(4096, 128),
            nn.ReLU(True))

    def forward(self, x):
        x = self.features(x)  # fails-here

        # Transpose the output from features to
        # remain compatible with vggish embeddings
        x = torch.transpose(x, 1, 3)
        x = torch.transpose(x, 1, 2)
        x = x.contiguous()
        x = x.view(x.size(0), -1)

        return self.embeddings(x)


def make_layers():
    layers = []
    in_channels = 1
    for v in [64, "M", 128, "M", 256, 256, "M", 512, 512, "M"]:
        if v == "M":
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
        else:
            conv2d = nn.Conv2d(in_channels, v, kernel_size=3, padding=1)
            layers += [conv2d, nn.ReLU(inplace=True)]
            in_channels = v
    return nn.Sequential(*layers)


class VGGish(VGG):
    def __init__(self, urls=None, device=None, pretrained=True, preprocess=True, postprocess=True, progress=True):
        super().__init__(make_layers())
        if pretrained:
            raise RuntimeError("no download here: build VGGish with pretrained=False")

        if device is None:
            device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.device = device
        self.preprocess = preprocess
        self.postprocess = postprocess
        self.to(self.device)

    def forward(self, x, fs=None):
        if self.preprocess:
            x = self._preprocess(x, fs)
        x = x.to(self.device)
        x = VGG.forward(self, x)
        return x

    def _preprocess(self, x, fs):
        if isinstance(x, np.ndarray):
            x = waveform_to_examples(x, fs)
        else:
            raise AttributeError
        return x


# ---- finetune.py: a small labelled sound-event set (synthetic tones and noise bursts, 1 s at 16 kHz)
CLASSES = ["low_hum", "whistle", "noise_burst", "chirp"]


def synth_clip(label, rng, sr=SAMPLE_RATE):
    t = np.arange(sr) / sr
    if label == 0:
        x = np.sin(2 * np.pi * rng.uniform(80, 200) * t)
    elif label == 1:
        x = np.sin(2 * np.pi * rng.uniform(2000, 4000) * t)
    elif label == 2:
        x = rng.randn(sr) * (t > rng.uniform(0.2, 0.6))
    else:
        f0 = rng.uniform(300, 600)
        x = np.sin(2 * np.pi * (f0 + 2000 * t) * t)
    return 0.5 * x + 0.01 * rng.randn(sr)


class SoundClips(Dataset):
    def __init__(self, n_per_class=4, seed=0):
        rng = np.random.RandomState(seed)
        self.examples, self.labels = [], []
        for label in range(len(CLASSES)):
            for _ in range(n_per_class):
                # computed once and cached: NumPy log-mel patches (num_examples, 96, 64)
                ex = waveform_to_examples(synth_clip(label, rng), SAMPLE_RATE, return_tensor=False)
                for patch in ex:
                    self.examples.append(np.ascontiguousarray(patch))
                    self.labels.append(label)

    def __len__(self):
        return len(self.examples)

    def __getitem__(self, idx):
        patch = torch.from_numpy(self.examples[idx]).unsqueeze(0)  # root-cause
        return patch, self.labels[idx]


class Classifier(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.vggish = VGGish(pretrained=False, preprocess=False, postprocess=False)
        self.head = nn.Linear(EMBEDDING_SIZE, n_classes)

    def forward(self, x):
        return self.head(self.vggish(x))


def main():
    torch.manual_seed(0)
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    loader = DataLoader(SoundClips(), batch_size=4, shuffle=True)
    model = Classifier(len(CLASSES)).to(device)
    optimizer = torch.optim.Adam(model.head.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch {}: loss {:.4f}".format(epoch, loss.item()))


if __name__ == "__main__":
    main()
