"""Noise2Noise speech denoising with a Deep Complex U-Net in the style of madhavmk/Noise2Noise-audio_denoising_without_clean_training_data: SpeechDataset loads 16-bit wav files, pads them and returns torch.stft spectrograms; on a recent PyTorch the notebook's stft call must name return_complex, and with return_complex=True it returns a complex64 tensor instead of the (..., 2) real pair the complex layers index with x[..., 0] / x[..., 1], so CConv2d hands complex slices to its real nn.Conv2d
source: https://github.com/madhavmk/Noise2Noise-audio_denoising_without_clean_training_data/issues/7
reported-error: "RuntimeError: stft requires the return_complex parameter be given for real inputs" ... "after i am specifying return_complex = True in torch.stft(...) i am getting new error RuntimeError: Input type (struct c10::complex<float>) and bias type (float) should be the same"; answer: "you probably need to add torch.view_as_real() ... after the stft to go from complex to real"
outcome: RuntimeError: Input type (c10::complex<float>) and bias type (float) should be the same at line 76
root-cause: line 51
expect: DG004
"""
import os
import tempfile
import wave

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(999)
np.random.seed(999)
DEVICE = torch.device("cpu")
SAMPLE_RATE = 16000
N_FFT = 64
HOP_LENGTH = 16


class SpeechDataset(Dataset):
    """Cuts/pads the audio to a fixed length, applies a short-time Fourier transform."""

    def __init__(self, noisy_files, clean_files, n_fft=64, hop_length=16):
        super().__init__()
        self.noisy_files = sorted(noisy_files)
        self.clean_files = sorted(clean_files)
        self.n_fft = n_fft
        self.hop_length = hop_length
        self.len_ = len(self.noisy_files)
        self.max_len = 4096

    def __len__(self):
        return self.len_

    def load_sample(self, file):
        # stand-in for torchaudio.load: 16-bit PCM -> float32 in [-1, 1), shape (channels, time)
        with wave.open(file, "rb") as w:
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
        return torch.from_numpy(pcm.astype(np.float32) / 32768.0)[None]

    def __getitem__(self, index):
        x_clean = self.load_sample(self.clean_files[index])
        x_noisy = self.load_sample(self.noisy_files[index])
        x_clean = self._prepare_sample(x_clean)
        x_noisy = self._prepare_sample(x_noisy)
        x_noisy_stft = torch.stft(input=x_noisy, n_fft=self.n_fft, hop_length=self.hop_length, normalized=True, return_complex=True)  # root-cause
        x_clean_stft = torch.stft(input=x_clean, n_fft=self.n_fft, hop_length=self.hop_length, normalized=True, return_complex=True)  # root-cause-alt
        return x_noisy_stft, x_clean_stft

    def _prepare_sample(self, waveform):
        waveform = waveform.numpy()
        current_len = waveform.shape[1]
        output = np.zeros((1, self.max_len), dtype="float32")
        output[0, -current_len:] = waveform[0, :self.max_len]
        return torch.from_numpy(output)


class CConv2d(nn.Module):
    """Complex valued convolutional layer on a (..., 2) real/imaginary pair."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0):
        super().__init__()
        self.real_conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, stride=stride)
        self.im_conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, stride=stride)
        nn.init.xavier_uniform_(self.real_conv.weight)
        nn.init.xavier_uniform_(self.im_conv.weight)

    def forward(self, x):
        x_real = x[..., 0]
        x_im = x[..., 1]
        c_real = self.real_conv(x_real) - self.im_conv(x_im)  # fails-here
        c_im = self.im_conv(x_real) + self.real_conv(x_im)
        return torch.stack([c_real, c_im], dim=-1)


class CConvTranspose2d(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, output_padding=0, padding=0):
        super().__init__()
        self.real_convt = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, output_padding=output_padding,
                                             padding=padding, stride=stride)
        self.im_convt = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, output_padding=output_padding,
                                           padding=padding, stride=stride)
        nn.init.xavier_uniform_(self.real_convt.weight)
        nn.init.xavier_uniform_(self.im_convt.weight)

    def forward(self, x):
        x_real = x[..., 0]
        x_im = x[..., 1]
        ct_real = self.real_convt(x_real) - self.im_convt(x_im)
        ct_im = self.im_convt(x_real) + self.real_convt(x_im)
        return torch.stack([ct_real, ct_im], dim=-1)


class CBatchNorm2d(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.real_b = nn.BatchNorm2d(num_features)
        self.im_b = nn.BatchNorm2d(num_features)

    def forward(self, x):
        return torch.stack([self.real_b(x[..., 0]), self.im_b(x[..., 1])], dim=-1)


class Encoder(nn.Module):
    def __init__(self, filter_size=(3, 3), stride_size=(2, 2), in_channels=1, out_channels=8, padding=(1, 1)):
        super().__init__()
        self.cconv = CConv2d(in_channels, out_channels, filter_size, stride=stride_size, padding=padding)
        self.cbn = CBatchNorm2d(out_channels)
        self.leaky_relu = nn.LeakyReLU()

    def forward(self, x):
        return self.leaky_relu(self.cbn(self.cconv(x)))


class Decoder(nn.Module):
    def __init__(self, filter_size=(3, 3), stride_size=(2, 2), in_channels=1, out_channels=8,
                 output_padding=(0, 0), padding=(1, 1), last_layer=False):
        super().__init__()
        self.last_layer = last_layer
        self.cconvt = CConvTranspose2d(in_channels, out_channels, filter_size, stride=stride_size,
                                       output_padding=output_padding, padding=padding)
        self.cbn = CBatchNorm2d(out_channels)
        self.leaky_relu = nn.LeakyReLU()

    def forward(self, x):
        conved = self.cconvt(x)
        if not self.last_layer:
            return self.leaky_relu(self.cbn(conved))
        m_phase = conved / (torch.abs(conved) + 1e-8)
        m_mag = torch.tanh(torch.abs(conved))
        return m_phase * m_mag


class DCUnet(nn.Module):
    """Deep Complex U-Net (DCUnet20 of the notebook, cut to 2 encoders and 2 decoders)."""

    def __init__(self, n_fft=64, hop_length=16):
        super().__init__()
        self.n_fft = n_fft
        self.hop_length = hop_length
        self.encoders = nn.ModuleList([Encoder(in_channels=1, out_channels=8), Encoder(in_channels=8, out_channels=16)])
        self.decoders = nn.ModuleList([Decoder(in_channels=16, out_channels=8),
                                       Decoder(in_channels=16, out_channels=1, last_layer=True)])

    def forward(self, x, is_istft=True):
        orig_x = x
        xs = []
        for encoder in self.encoders:
            xs.append(x)
            x = encoder(x)
        p = x
        for i, decoder in enumerate(self.decoders):
            p = decoder(p)
            if i == len(self.decoders) - 1:
                break
            p = torch.cat([p, xs[len(self.decoders) - 1 - i]], dim=1)
        mask = p
        output = mask * orig_x
        output = torch.squeeze(output, 1)
        if is_istft:
            output = torch.istft(output, n_fft=self.n_fft, hop_length=self.hop_length, normalized=True)
        return output


def wsdr_fn(x_, y_pred_, y_true_, eps=1e-8):
    y_true = torch.istft(torch.squeeze(y_true_, 1), n_fft=N_FFT, hop_length=HOP_LENGTH, normalized=True)
    x = torch.istft(torch.squeeze(x_, 1), n_fft=N_FFT, hop_length=HOP_LENGTH, normalized=True)
    y_pred = y_pred_.flatten(1)
    y_true = y_true.flatten(1)
    x = x.flatten(1)

    def sdr_fn(true, pred, eps=1e-8):
        num = torch.sum(true * pred, dim=1)
        den = torch.norm(true, p=2, dim=1) * torch.norm(pred, p=2, dim=1)
        return -(num / (den + eps))

    z_true = x - y_true
    z_pred = x - y_pred
    a = torch.sum(y_true ** 2, dim=1) / (torch.sum(y_true ** 2, dim=1) + torch.sum(z_true ** 2, dim=1) + eps)
    wSDR = a * sdr_fn(y_true, y_pred) + (1 - a) * sdr_fn(z_true, z_pred)
    return torch.mean(wSDR)


def train_epoch(net, train_loader, loss_fn, optimizer):
    net.train()
    train_ep_loss, counter = 0.0, 0
    for noisy_x, clean_x in train_loader:
        noisy_x, clean_x = noisy_x.to(DEVICE), clean_x.to(DEVICE)
        net.zero_grad()
        pred_x = net(noisy_x)
        loss = loss_fn(noisy_x, pred_x, clean_x)
        loss.backward()
        optimizer.step()
        train_ep_loss += loss.item()
        counter += 1
    return train_ep_loss / counter


# ---- a tiny white-noise Noise2Noise set: noisy inputs and *noisy* targets, 16-bit wav files ----
root = tempfile.mkdtemp()
train_input_files, train_target_files = [], []
t = np.arange(3500) / SAMPLE_RATE
for i in range(6):
    clean = 0.3 * np.sin(2 * np.pi * (200 + 60 * i) * t) * np.hanning(len(t))
    for kind, files in (("input", train_input_files), ("target", train_target_files)):
        noisy = clean + np.random.normal(0, 0.05, len(t))
        path = os.path.join(root, f"{kind}_{i}.wav")
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes((np.clip(noisy, -1, 1) * 32767).astype(np.int16).tobytes())
        files.append(path)

train_dataset = SpeechDataset(train_input_files, train_target_files, N_FFT, HOP_LENGTH)
train_loader = DataLoader(train_dataset, batch_size=2, shuffle=True)
dcunet = DCUnet(N_FFT, HOP_LENGTH).to(DEVICE)
optimizer = torch.optim.Adam(dcunet.parameters(), lr=1e-3)
for epoch in range(3):
    print(f"epoch {epoch}: train wSDR loss {train_epoch(dcunet, train_loader, wsdr_fn, optimizer):.4f}")
