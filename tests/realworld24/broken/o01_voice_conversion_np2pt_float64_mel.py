"""One-shot voice conversion inference (AGAIN-VC layout): the util np2pt helper turns the librosa-style log-mel array into a tensor with torch.from_numpy, which keeps NumPy's float64, and the float32 Conv1d encoder receives a double tensor
source: https://github.com/KimythAnly/AGAIN-VC/issues/2
reported-error: RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same (inferencer.inference -> F.conv1d; fixed by making np2pt return a FloatTensor)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 34
root-cause: line 15
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- util/mytorch.py
def np2pt(array):
    return torch.from_numpy(array)  # root-cause


# ---- util/audio.py
def log_mel(wav, n_mels=40, hop=64):
    frames = len(wav) // hop
    spec = np.abs(np.fft.rfft(wav[: frames * hop].reshape(frames, hop), axis=1))
    fb = np.random.default_rng(0).random((spec.shape[1], n_mels))
    return np.log(spec @ fb + 1e-5).T  # (n_mels, frames), float64


# ---- model.py
class Encoder(nn.Module):
    def __init__(self, c_in=40, c_h=64):
        super().__init__()
        self.conv = nn.Conv1d(c_in, c_h, 5, padding=2)
        self.norm = nn.InstanceNorm1d(c_h)

    def forward(self, x):
        return self.norm(torch.relu(self.conv(x)))  # fails-here


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

    def inference(self, source_wav, target_wav, seglen=None):
        src = np2pt(log_mel(source_wav)).unsqueeze(0)
        tgt = np2pt(log_mel(target_wav)).unsqueeze(0)
        with torch.no_grad():
            return self.model(src, tgt)


if __name__ == "__main__":
    torch.manual_seed(0)
    rng = np.random.default_rng(1)
    inferencer = Inferencer(AgainVC())
    out = inferencer.inference(rng.standard_normal(8000), rng.standard_normal(8000))
    print("converted mel", tuple(out.shape), out.dtype)
