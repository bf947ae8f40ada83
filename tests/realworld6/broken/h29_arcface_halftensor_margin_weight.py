"""Metric-learning image model with an ArcMarginProduct head whose weight is created as nn.Parameter(torch.HalfTensor(...)), trained with 16-bit AMP (autocast + GradScaler)
source: https://github.com/Lightning-AI/pytorch-lightning/issues/7078
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 60
root-cause: line 23
expect: DG014
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, scale=30.0, margin=0.50, easy_margin=False, ls_eps=0.0):
        super(ArcMarginProduct, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.scale = scale
        self.margin = margin
        self.ls_eps = ls_eps
        self.weight = nn.Parameter(torch.HalfTensor(out_features, in_features))  # root-cause
        nn.init.xavier_uniform_(self.weight)
        self.easy_margin = easy_margin
        self.register_buffer("cos_m", torch.tensor(math.cos(margin)))
        self.register_buffer("sin_m", torch.tensor(math.sin(margin)))
        self.register_buffer("th", torch.tensor(math.cos(math.pi - margin)))
        self.register_buffer("mm", torch.tensor(math.sin(math.pi - margin) * margin))

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.pow(cosine, 2)).clamp(min=1e-6)).to(cosine.dtype)
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where(cosine > self.th, phi, cosine - self.mm).to(cosine.dtype)
        one_hot = torch.zeros_like(cosine).scatter_(1, label.view(-1, 1).long(), 1)
        if self.ls_eps > 0:
            one_hot = (1 - self.ls_eps) * one_hot + self.ls_eps / self.out_features
        return ((one_hot * phi) + ((1.0 - one_hot) * cosine)) * self.scale


class ShopeeNet(nn.Module):
    def __init__(self, n_classes=11, fc_dim=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, fc_dim)
        self.final = ArcMarginProduct(fc_dim, n_classes, scale=30, margin=0.5, ls_eps=0.0)

    def forward(self, image, label):
        return self.final(self.fc(self.backbone(image)), label)


def training_step(model, batch, optimizer, scaler, device):
    images, labels = batch
    with torch.autocast(device.type, dtype=torch.float16):
        logits = model(images.to(device), labels.to(device))
        loss = F.cross_entropy(logits.float(), labels.to(device))
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # fails-here
    scaler.update()
    return loss


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ShopeeNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device.type)
    for epoch in range(2):
        batch = (torch.rand(8, 3, 32, 32), torch.randint(0, 11, (8,)))
        loss = training_step(model, batch, optimizer, scaler, device)
        print(f"epoch {epoch} loss {loss.item():.4f}")
