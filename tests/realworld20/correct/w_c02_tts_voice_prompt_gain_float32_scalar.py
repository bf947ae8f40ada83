"""Zero-shot TTS reference-voice pipeline whose loudness normalisation turns the NumPy float64 gain into np.float32 before multiplying, so the prompt clip stays float32 under NumPy 2 promotion and matches the voice encoder
source: https://github.com/resemble-ai/chatterbox/issues/499
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

SR = 16000


# ---- audio_utils.py
def load_prompt(seconds=1.5, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(int(SR * seconds), dtype=np.float32) / SR
    return (0.05 * np.sin(2 * np.pi * 180 * t) + 0.01 * rng.standard_normal(t.size)).astype(np.float32)


def norm_loudness(wav, target_db=-27.0):
    rms = float(np.sqrt(np.mean(wav ** 2)) + 1e-9)
    gain_db = target_db - 20 * np.log10(rms)
    gain_linear = np.float32(np.power(10.0, gain_db / 20.0))
    return wav * gain_linear


# ---- voice_encoder.py
class VoiceEncoder(nn.Module):
    def __init__(self, frame=400, hop=160, dim=64):
        super().__init__()
        self.frame, self.hop = frame, hop
        self.proj = nn.Linear(frame, 128)
        self.lstm = nn.LSTM(128, dim, batch_first=True)

    def forward(self, wav):
        frames = wav.unfold(-1, self.frame, self.hop)
        h, _ = self.lstm(torch.relu(self.proj(frames)))
        emb = h[:, -1]
        return emb / emb.norm(dim=-1, keepdim=True)


# ---- tts.py
class ReferenceTTS:
    def __init__(self):
        self.ve = VoiceEncoder().eval()

    def prepare_conditionals(self, wav):
        wav = norm_loudness(wav)
        with torch.inference_mode():
            return self.ve(torch.from_numpy(wav)[None])

    def generate(self, text, audio_prompt=None):
        spk = self.prepare_conditionals(audio_prompt)
        return f"{len(text)} chars conditioned on speaker embedding {tuple(spk.shape)}"


if __name__ == "__main__":
    tts = ReferenceTTS()
    print(tts.generate("Whereas recognition of the inherent dignity", audio_prompt=load_prompt()))
