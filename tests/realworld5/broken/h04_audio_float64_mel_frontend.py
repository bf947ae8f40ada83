"""Audio classifier whose front-end computes a mel spectrogram with a float32 mel basis; waveforms decoded to float64 NumPy (librosa-style) reach it unchanged
source: https://github.com/earthspecies/avex/pull/147
reported-error: expected m1 and m2 to have the same dtype, but got: double != float
outcome: RuntimeError: expected scalar type Double but found Float at line 29
root-cause: line 52
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


def load_audio(path, sr=16000, seconds=1.0):
    # stands in for librosa.load / soundfile.read(dtype="float64")
    rng = np.random.default_rng(abs(hash(path)) % 2**32)
    return rng.uniform(-1, 1, int(sr * seconds)), sr


class MelFrontend(nn.Module):
    def __init__(self, n_fft=400, hop=160, n_mels=40):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft))
        self.register_buffer("mel_basis", torch.rand(n_mels, n_fft // 2 + 1))

    def forward(self, wav):
        spec = torch.stft(wav, self.n_fft, self.hop, window=self.window.to(wav.dtype),
                          return_complex=True).abs() ** 2
        mel = torch.matmul(self.mel_basis, spec)  # fails-here
        return torch.log(mel + 1e-6)


class EfficientNetLike(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.frontend = MelFrontend()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(8, num_classes)

    def process_audio(self, audio):
        return self.frontend(audio)

    def forward(self, audio):
        feats = self.process_audio(audio).unsqueeze(1)
        return self.head(self.conv(feats).flatten(1))


def main():
    paths = [f"clip_{i}.wav" for i in range(8)]
    labels = torch.randint(0, 5, (8,))
    batch = np.stack([load_audio(p)[0] for p in paths])
    audio = torch.from_numpy(batch)  # root-cause
    model = EfficientNetLike()
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    logits = model(audio)
    loss = nn.functional.cross_entropy(logits, labels)
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    main()
