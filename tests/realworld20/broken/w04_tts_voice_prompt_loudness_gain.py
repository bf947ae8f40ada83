"""Zero-shot TTS reference-voice pipeline: the prompt clip is read as float32, normalised to a target loudness with a gain computed by np.power(10.0, gain_db / 20), which is a np.float64 scalar; under NumPy 2 promotion the multiplied clip becomes float64 and reaches the float32 voice encoder
source: https://github.com/resemble-ai/chatterbox/issues/499
reported-error: RuntimeError: expected scalar type Double but found Float when specifying audio_prompt_path with numpy>=2.0 (gain_linear is a np.float64 and promotes wav from np.float32 to np.float64)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 39
root-cause: line 26
expect: DG004
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
    gain_linear = np.power(10.0, gain_db / 20.0)
    return wav * gain_linear  # root-cause


# ---- voice_encoder.py
class VoiceEncoder(nn.Module):
    def __init__(self, frame=400, hop=160, dim=64):
        super().__init__()
        self.frame, self.hop = frame, hop
        self.proj = nn.Linear(frame, 128)
        self.lstm = nn.LSTM(128, dim, batch_first=True)

    def forward(self, wav):
        frames = wav.unfold(-1, self.frame, self.hop)
        h, _ = self.lstm(torch.relu(self.proj(frames)))  # fails-here
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
