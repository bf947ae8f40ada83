"""One-shot voice conversion inference whose np2pt helper returns torch.from_numpy(array).float() (the AGAIN-VC fix), so the float64 log-mel array reaches the Conv1d encoder as float32
source: https://github.com/KimythAnly/AGAIN-VC/issues/2
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


# ---- util/mytorch.py
def np2pt(array):
    return torch.from_numpy(array).float()


# ---- util/audio.py
def log_mel(wav, n_mels=40, hop=64):
    frames = len(wav) // hop
    spec = np.abs(np.fft.rfft(wav[: frames * hop].reshape(frames, hop), axis=1))
    fb = np.random.default_rng(0).random((spec.shape[1], n_mels))
    return np.log(spec @ fb + 1e-5).T


# ---- model.py
class Encoder(nn.Module):
    def __init__(self, c_in=40, c_h=64):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_h, 5, padding=2)
        self.norm = nn.InstanceNorm1d(c_h)

    def forward(self, x):
        return self.norm(torch.relu(self.conv(x)))


class Decoder(nn.Module):
    def __init__(self, c_h=64, c_out=40):
        super().__init__()
        self.conv = nn.Conv1d(c_h, c_out, 5, padding=2)

    def forward(self, content, speaker):
        return self.conv(content * speaker.mean(-1, keepdim=True))


class AgainVC(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    def forward(self, source, target):
        return self.decoder(self.encoder(source), self.encoder(target))


class Inferencer:
    def __init__(self, model):
        self.model = model.eval()

    def inference(self, source_wav, target_wav):
        src = np2pt(log_mel(source_wav)).unsqueeze(0)
        tgt = np2pt(log_mel(target_wav)).unsqueeze(0)
        with torch.no_grad():
            return self.model(src, tgt)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(1)
    out = Inferencer(AgainVC()).inference(rng.standard_normal(8000), rng.standard_normal(8000))
    print("converted mel", tuple(out.shape), out.dtype)
