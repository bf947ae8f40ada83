"""Speech-recognition evaluation helper decorated with @torch.no_grad(): it computes encoder logits under torch.autocast("cpu", dtype=torch.bfloat16) (as the training step does), leaves the block, and multiplies the bfloat16 posteriors with the float32 phone-to-word projection matrix with torch.mm
source: https://github.com/rwth-i6/returnn/issues/1828
reported-error: none quoted (under torch autocast, activations ping-pong between float32 and bfloat16)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float at line 27
root-cause: line 26
expect: DG017
"""
import numpy as np
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, feat=40, hidden=64, phones=30):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, phones))

    def forward(self, x):
        return self.net(x)


@torch.no_grad()
def evaluate(encoder, feats, phone2word, labels):
    encoder.eval()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        posteriors = encoder(feats).softmax(-1)  # root-cause
    word_scores = torch.mm(posteriors, phone2word)  # fails-here
    return float(np.mean((word_scores.argmax(-1) == labels).numpy()))


torch.manual_seed(0)
encoder = Encoder()
phone2word = torch.rand(30, 12)
feats = torch.randn(50, 40)
labels = torch.randint(0, 12, (50,))
print("word accuracy", evaluate(encoder, feats, phone2word, labels))
