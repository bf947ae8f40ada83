"""Video-object-segmentation evaluation script (STM-style) run on a CPU-only laptop: the released weights were saved from a CUDA model (simulated by writing cuda:0 storage tags), and load_weights() calls torch.load(path) without map_location before moving the model to the chosen device
source: https://github.com/seoungwugoh/STM/issues/16
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 39
root-cause: line 39
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class MemoryReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.key = nn.Conv2d(3, 8, 3, padding=1)
        self.value = nn.Conv2d(3, 8, 3, padding=1)
        self.decoder = nn.Conv2d(16, 1, 1)

    def forward(self, frame, memory):
        k, v = self.key(frame), self.value(memory)
        return torch.sigmoid(self.decoder(torch.cat([k, v], dim=1)))


def save_released_weights(path):
    """Stand-in for the authors' GPU training run: storages are tagged cuda:0 like a CUDA checkpoint."""
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(MemoryReader().state_dict(), path)
    finally:
        serialization.location_tag = original


def load_weights(model, path):
    state = torch.load(path)  # root-cause # fails-here
    model.load_state_dict(state)
    return model


def jaccard(pred, gt):
    inter = ((pred > 0.5) & (gt > 0.5)).sum().item()
    union = ((pred > 0.5) | (gt > 0.5)).sum().item()
    return inter / max(union, 1)


def evaluate(weights):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = load_weights(MemoryReader(), weights).to(device).eval()
    scores = []
    with torch.no_grad():
        for seq in range(3):
            frames = torch.rand(4, 3, 16, 16, device=device)
            gt = (frames.mean(1, keepdim=True) > 0.5).float()
            for t in range(1, 4):
                scores.append(jaccard(model(frames[t:t + 1], frames[t - 1:t]), gt[t:t + 1]))
    return sum(scores) / len(scores)


if __name__ == "__main__":
    weights = os.path.join(tempfile.mkdtemp(), "STM_weights.pth")
    save_released_weights(weights)
    print(f"J mean {evaluate(weights):.3f}")
