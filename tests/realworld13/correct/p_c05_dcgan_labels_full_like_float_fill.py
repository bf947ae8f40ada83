"""DCGAN-style loop whose labels are made with torch.full((b,), 1.0) and torch.full_like(logits, 0.0) (float fill), and a label-smoothing helper using torch.where with float branches, all into nn.BCEWithLogitsLoss
source: https://openillumi.com/pytorch-float-long-cast-error-fix
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

netG = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2))
netD = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
criterion = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))


def smooth(labels, flip_mask):
    return torch.where(flip_mask, 1.0 - labels, labels * 0.9)


for it in range(20):
    angle = torch.rand(64) * 6.2832
    real = torch.stack([angle.cos(), angle.sin()], 1)
    fake = netG(torch.randn(64, 16))
    out_real = netD(real).view(-1)
    real_labels = smooth(torch.full((64,), 1.0), torch.rand(64) < 0.05)
    errD = criterion(out_real, real_labels) + criterion(netD(fake.detach()).view(-1), torch.full_like(out_real, 0.0))
    optD.zero_grad()
    errD.backward()
    optD.step()
    errG = criterion(netD(fake).view(-1), torch.ones(64))
    optG.zero_grad()
    errG.backward()
    optG.step()
print(f"Loss_D {errD.item():.3f} Loss_G {errG.item():.3f}")
