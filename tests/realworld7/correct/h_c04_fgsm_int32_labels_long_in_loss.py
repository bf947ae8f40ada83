"""FGSM attack whose sample loader still returns int32 labels; the attack's loss helper converts them with .long() before cross-entropy
source: https://github.com/bethgelab/foolbox/issues/647
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def samples(batchsize=4, n_classes=10):
    rng = np.random.default_rng(0)
    return rng.random((batchsize, 3, 16, 16), dtype=np.float32), rng.integers(0, n_classes, batchsize).astype(np.int32)


def margin_loss(logits, labels):
    return F.cross_entropy(logits, labels.long())


model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10)).eval()
images, labels = map(torch.from_numpy, samples())
x = images.clone().requires_grad_(True)
grad, = torch.autograd.grad(margin_loss(model(x), labels), x)
adv = (images + 0.03 * grad.sign()).clamp(0, 1)
print("adversarial accuracy", (model(adv).argmax(1) == labels).float().mean().item())
