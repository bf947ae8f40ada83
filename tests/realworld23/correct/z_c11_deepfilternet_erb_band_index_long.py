"""Speech enhancement with a learned per-band embedding whose ERB band index of every bin is computed with NumPy floor on float64 frequencies and converted with .long() before it indexes the embedding
source: https://github.com/Rikorose/DeepFilterNet/issues/642
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

DF_CONFIG = {"sr": 16000, "fft_size": 128, "nb_erb": 8, "emb_dim": 4}


# ---- df/utils.py
def erb_band_of_bins(sr, fft_size, nb_erb):
    freqs = np.linspace(0, sr / 2, fft_size // 2 + 1)
    erb = 21.4 * np.log10(1 + 0.00437 * freqs)
    return torch.from_numpy(np.floor(erb / erb.max() * (nb_erb - 1))).long()


# ---- df/model.py
class ErbEncoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.register_buffer("band_idx", erb_band_of_bins(cfg["sr"], cfg["fft_size"], cfg["nb_erb"]))
        self.band_emb = nn.Embedding(cfg["nb_erb"], cfg["emb_dim"])
        self.gru = nn.GRU(cfg["fft_size"] // 2 + 1, 16, batch_first=True)
        self.mask = nn.Linear(16, cfg["fft_size"] // 2 + 1)

    def forward(self, spec_mag):
        band_gain = self.band_emb(self.band_idx).mean(-1)
        h, _ = self.gru(torch.log1p(spec_mag) * band_gain)
        return torch.sigmoid(self.mask(h)) * spec_mag


def enhance(model, audio, cfg):
    window = torch.hann_window(cfg["fft_size"])
    spec = torch.stft(audio, cfg["fft_size"], hop_length=cfg["fft_size"] // 2, window=window, return_complex=True)
    mag = spec.abs().transpose(1, 2)
    enhanced_mag = model(mag).transpose(1, 2)
    return torch.istft(torch.polar(enhanced_mag, spec.angle()), cfg["fft_size"], hop_length=cfg["fft_size"] // 2, window=window)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ErbEncoder(DF_CONFIG).eval()
    t = torch.arange(DF_CONFIG["sr"] // 4) / DF_CONFIG["sr"]
    noisy = torch.sin(2 * torch.pi * 440 * t) + 0.3 * torch.randn_like(t)
    with torch.no_grad():
        out = enhance(model, noisy.unsqueeze(0), DF_CONFIG)
    print("enhanced samples", out.shape[-1])
