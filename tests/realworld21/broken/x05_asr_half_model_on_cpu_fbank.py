"""Speech recognition inference/fine-tuning wrapper (Dolphin-style): the loader always casts the acoustic model to float16 "to save memory", also when it falls back to the CPU, while the filterbank frontend produces float32 features, so the first subsampling convolution sees float32 input with half weights
source: https://github.com/bytedance/Dolphin/pull/148
reported-error: RuntimeError: Input type (c10::Half) and bias type (float) should be the same (running on CPU; fix: use float32 on CPU and float16 on GPU)
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 22
root-cause: line 49
expect: DG004
"""
import argparse

import torch
import torch.nn as nn


# ---- dolphin/model.py
class Conv2dSubsampling(nn.Module):
    def __init__(self, idim=40, odim=64):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, odim, 3, 2), nn.ReLU(), nn.Conv2d(odim, odim, 3, 2), nn.ReLU())
        self.out = nn.Linear(odim * (((idim - 1) // 2 - 1) // 2), odim)

    def forward(self, x):
        x = self.conv(x.unsqueeze(1))  # fails-here
        b, c, t, f = x.shape
        return self.out(x.transpose(1, 2).reshape(b, t, c * f))


class TinyCTCModel(nn.Module):
    def __init__(self, vocab=32):
        super().__init__()
        self.embed = Conv2dSubsampling()
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, 128, batch_first=True), 2)
        self.ctc = nn.Linear(64, vocab)

    def forward(self, feats):
        return self.ctc(self.encoder(self.embed(feats))).log_softmax(-1)


# ---- dolphin/frontend.py
def fbank(wav, n_mels=40, hop=160, win=400):
    frames = wav.unfold(-1, win, hop) * torch.hann_window(win)
    spec = torch.fft.rfft(frames).abs() ** 2
    mel = torch.rand(spec.shape[-1], n_mels, generator=torch.Generator().manual_seed(0))
    return torch.log(spec @ mel + 1e-6)


# ---- dolphin/transcribe.py
def load_model(device):
    model = TinyCTCModel().eval()
    return model.to(device=device, dtype=torch.float16)  # root-cause


def transcribe(model, wav, device):
    feats = fbank(wav).unsqueeze(0).to(device)
    with torch.no_grad():
        logp = model(feats)
    return logp.argmax(-1).unique_consecutive().tolist()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = p.parse_args([])
    torch.manual_seed(0)
    model = load_model(args.device)
    wav = torch.randn(16000) * 0.1
    print("tokens:", transcribe(model, wav, args.device)[:10])
