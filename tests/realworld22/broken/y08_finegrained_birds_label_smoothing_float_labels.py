"""Fine-grained bird classification (MPSA-style part-aware ViT head) trained with a timm-like LabelSmoothingCrossEntropy: the annotation reader loads image_class_labels with np.loadtxt (float64 by default) and the dataset returns the class as torch.tensor(label - 1), so the loss's logprobs.gather(dim=-1, index=target.unsqueeze(1)) receives a float index
source: https://github.com/mobulan/MPSA/issues/6
reported-error: RuntimeError: gather(): Expected dtype int64 for index (fixed by replacing LabelSmoothingCrossEntropy(smoothing=label_smooth) with nn.CrossEntropyLoss(label_smoothing=label_smooth) in mps.py)
outcome: RuntimeError: gather(): Expected dtype int32/int64 for index at line 27
root-cause: line 45
expect: DG005
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
        nll_loss = -logprobs.gather(dim=-1, index=target.unsqueeze(1)).squeeze(1)  # fails-here
        smooth_loss = -logprobs.mean(dim=-1)
        return (self.confidence * nll_loss + self.smoothing * smooth_loss).mean()


# ---- data/cub.py
class CUBParts(Dataset):
    def __init__(self, labels_file, img_size=32):
        table = np.loadtxt(labels_file)
        self.labels = table[:, 1]
        self.img_size = img_size

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        img = torch.rand(3, self.img_size, self.img_size, generator=g)
        return img, torch.tensor(self.labels[i] - 1)  # root-cause


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
    criterion = LabelSmoothingCrossEntropy(smoothing=0.1)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for imgs, labels in loader:
            loss = criterion(model(imgs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
