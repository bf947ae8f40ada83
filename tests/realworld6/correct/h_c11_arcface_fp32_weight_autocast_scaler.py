"""ArcMarginProduct head with its weight created in float32 (torch.FloatTensor) and 16-bit compute left to autocast, so GradScaler unscales float32 gradients (the fix in the thread)
source: https://github.com/Lightning-AI/pytorch-lightning/issues/7078
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, scale=30.0, margin=0.50):
        super().__init__()
        self.scale = scale
        self.weight = nn.Parameter(torch.FloatTensor(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.cos_m, self.sin_m = math.cos(margin), math.sin(margin)
        self.th, self.mm = math.cos(math.pi - margin), math.sin(math.pi - margin) * margin

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(min=1e-6))
        phi = torch.where(cosine > self.th, cosine * self.cos_m - sine * self.sin_m, cosine - self.mm)
        one_hot = torch.zeros_like(cosine).scatter_(1, label.view(-1, 1).long(), 1)
        return ((one_hot * phi) + ((1.0 - one_hot) * cosine)) * self.scale


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 64)).to(device)
    head = ArcMarginProduct(64, 11).to(device)
    optimizer = torch.optim.Adam(list(backbone.parameters()) + list(head.parameters()), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type)
    for epoch in range(2):
        images, labels = torch.rand(8, 3, 32, 32, device=device), torch.randint(0, 11, (8,), device=device)
        with torch.autocast(device.type, dtype=torch.float16):
            logits = head(backbone(images), labels)
            loss = F.cross_entropy(logits.float(), labels)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        print(f"epoch {epoch} loss {loss.item():.4f}")
