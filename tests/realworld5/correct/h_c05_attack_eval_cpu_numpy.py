"""Adversarial-attack evaluation that moves perturbation norms to the host with .cpu() before .numpy() (the merged fix)
source: https://github.com/amirgholami/TRAttack/pull/3
reported-error: can't convert cuda:0 device type tensor to numpy (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def fgsm(model, data, target, eps=0.05, iters=3):
    x = data.clone().requires_grad_(True)
    for _ in range(iters):
        grad, = torch.autograd.grad(F.cross_entropy(model(x), target), x)
        x = (x + eps * grad.sign()).detach().requires_grad_(True)
    return x.detach()


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    model = model.to(device).eval()
    acc, total, ratios = 0, 0, []
    for _ in range(3):
        data = torch.rand(16, 3, 16, 16, device=device)
        target = torch.randint(0, 10, (16,), device=device)
        x_adv = fgsm(model, data, target)
        with torch.no_grad():
            acc += model(x_adv).argmax(1).eq(target).sum().item()
        total += data.size(0)
        diff = (x_adv - data).flatten(1)
        ratios.append((diff.norm(dim=1) / data.flatten(1).norm(dim=1)).cpu().numpy())
    print("robust acc {:.3f} mean perturbation {:.4f}".format(acc / total, np.concatenate(ratios).mean()))


if __name__ == "__main__":
    main()
