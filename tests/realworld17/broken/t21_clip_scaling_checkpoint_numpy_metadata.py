"""CLIP scaling-law style training run: save_checkpoint() stores the state_dict together with metadata including the current learning rate from a NumPy cosine schedule (cosine_lr returns np.float64); create_model_from_pretrained() later loads it with torch.load's default weights_only=True
source: https://github.com/mlfoundations/open_clip/issues/1078
reported-error: UnpicklingError for models from repo "LAION-AI/scaling-laws-openclip" (Weights only load failed)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 45
root-cause: line 38
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class TinyCLIP(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.visual = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, dim))
        self.text = nn.EmbeddingBag(100, dim)
        self.logit_scale = nn.Parameter(torch.tensor(np.log(1 / 0.07), dtype=torch.float32))

    def forward(self, images, tokens):
        img = nn.functional.normalize(self.visual(images), dim=-1)
        txt = nn.functional.normalize(self.text(tokens), dim=-1)
        return self.logit_scale.exp() * img @ txt.T


def cosine_lr(step, total, base_lr=1e-3):
    return base_lr * 0.5 * (1 + np.cos(np.pi * step / total))


def save_checkpoint(path, model, step, total, batch_size):
    samples_seen = step * batch_size
    torch.save({
        "state_dict": model.state_dict(),
        "samples_seen": samples_seen,
        "lr": cosine_lr(step, total),  # root-cause
        "epoch": step // 10,
    }, path)


def create_model_from_pretrained(path):
    model = TinyCLIP()
    checkpoint = torch.load(path, map_location="cpu")  # fails-here
    model.load_state_dict(checkpoint["state_dict"])
    return model, checkpoint


model = TinyCLIP()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(5):
    images, tokens = torch.rand(8, 3, 8, 8), torch.randint(0, 100, (8, 6))
    logits = model(images, tokens)
    labels = torch.arange(8)
    loss = (nn.functional.cross_entropy(logits, labels) + nn.functional.cross_entropy(logits.T, labels)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
path = os.path.join(tempfile.mkdtemp(), "Model-B-16_Samples-13B.pt")
save_checkpoint(path, model, step=5, total=100, batch_size=8)
model2, meta = create_model_from_pretrained(path)
print("loaded; samples seen", int(meta["samples_seen"]))
