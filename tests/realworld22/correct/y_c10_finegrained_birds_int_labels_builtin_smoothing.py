"""Fine-grained bird classifier that reads the class table with np.loadtxt(..., dtype=np.int64) and trains with nn.CrossEntropyLoss(label_smoothing=0.1) (the MPSA fix), so the targets are int64 class indices
source: https://github.com/mobulan/MPSA/issues/6
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import io

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

LABELS_TXT = "\n".join(f"{i + 1} {(i % 5) + 1}" for i in range(40))


# ---- timm/loss/cross_entropy.py
class LabelSmoothingCrossEntropy(nn.Module):
    def __init__(self, smoothing=0.1):
        super().__init__()
        self.smoothing, self.confidence = smoothing, 1.0 - smoothing

    def forward(self, x, target):
        logprobs = F.log_softmax(x, dim=-1)
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1)).squeeze(1)
        smooth_loss = -logprobs.mean(dim=-1)
        return (self.confidence * nll_loss + self.smoothing * smooth_loss).mean()


# ---- data/cub.py
class CUBParts(Dataset):
    def __init__(self, labels_file, img_size=32):
        table = np.loadtxt(labels_file, dtype=np.int64)
        self.labels = table[:, 1]
        self.img_size = img_size

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        img = torch.rand(3, self.img_size, self.img_size, generator=g)
        return img, torch.tensor(self.labels[i] - 1)


# ---- models/mps.py
class PartAwareNet(nn.Module):
    def __init__(self, num_classes=5, dim=48, patch=8):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x):
        tokens = self.patch_embed(x).flatten(2).transpose(1, 2)
        attended, _ = self.attn(tokens, tokens, tokens)
        return self.head(attended.mean(1))


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(CUBParts(io.StringIO(LABELS_TXT)), batch_size=8, shuffle=True)
    model = PartAwareNet()
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for imgs, labels in loader:
            loss = criterion(model(imgs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
