"""Speaker identification with an ECAPA-like encoder: the frame-level TDNN encoder runs under bfloat16 autocast, the trainer closes the autocast block before the attentive statistics pooling, and the pooling's float32 TDNN convolution then receives the bfloat16 frame features concatenated with their statistics
source: https://github.com/speechbrain/speechbrain/issues/2544
reported-error: dtype mismatch in AttentiveStatisticsPooling with FP16 or BF16 training mode (ECAPA_TDNN.py line 275; needs .to(x.dtype))
outcome: RuntimeError: Input type (c10::BFloat16) and bias type (float) should be the same at line 21
root-cause: line 61
expect: DG017
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- lobes/models/ECAPA_TDNN.py
class TDNNBlock(nn.Module):
    def __init__(self, cin, cout, k=3, d=1):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, k, dilation=d, padding=d * (k - 1) // 2)
        self.norm = nn.BatchNorm1d(cout)

    def forward(self, x):
        return self.norm(F.relu(self.conv(x)))  # fails-here


class AttentiveStatisticsPooling(nn.Module):
    def __init__(self, channels, attention_channels=16):
        super().__init__()
        self.tdnn = TDNNBlock(channels * 3, attention_channels, 1)
        self.conv = nn.Conv1d(attention_channels, channels, 1)

    def forward(self, x):
        mean = x.mean(dim=2, keepdim=True).expand_as(x)
        std = x.std(dim=2, keepdim=True).clamp(min=1e-5).expand_as(x)
        attn = torch.cat([x, mean, std], dim=1)
        attn = self.conv(torch.tanh(self.tdnn(attn)))
        w = F.softmax(attn, dim=2)
        mu = (w * x).sum(dim=2)
        sg = ((w * x * x).sum(dim=2) - mu ** 2).clamp(min=1e-5).sqrt()
        return torch.cat([mu, sg], dim=1)


class FrameEncoder(nn.Module):
    def __init__(self, n_mels=24, channels=32):
        super().__init__()
        self.blocks = nn.Sequential(TDNNBlock(n_mels, channels, 5), TDNNBlock(channels, channels, 3, 2), TDNNBlock(channels, channels, 3, 3))

    def forward(self, feats):
        return self.blocks(feats.transpose(1, 2))


# ---- recipes/VoxCeleb/train_speaker_embeddings.py
class SpeakerBrain:
    def __init__(self, n_spk=5, channels=32):
        self.encoder = FrameEncoder(channels=channels)
        self.pooling = AttentiveStatisticsPooling(channels)
        self.classifier = nn.Linear(2 * channels, n_spk)
        params = [*self.encoder.parameters(), *self.pooling.parameters(), *self.classifier.parameters()]
        self.optimizer = torch.optim.Adam(params, lr=1e-3)

    def compute_forward(self, feats):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            frames = self.encoder(feats)  # root-cause
        return self.classifier(self.pooling(frames))

    def fit_batch(self, feats, spk):
        loss = F.cross_entropy(self.compute_forward(feats), spk)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    brain = SpeakerBrain()
    for step in range(3):
        feats, spk = torch.randn(8, 50, 24), torch.randint(0, 5, (8,))
        print(f"step {step}: loss {brain.fit_batch(feats, spk):.4f}")
