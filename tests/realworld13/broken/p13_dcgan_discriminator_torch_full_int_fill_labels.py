"""DCGAN-style training loop whose make_labels() helper builds the real/fake targets with torch.full((b,), 1) and torch.full((b,), 0) (integer fill, so int64), later passed to nn.BCEWithLogitsLoss in the discriminator step
source: https://openillumi.com/pytorch-float-long-cast-error-fix
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 33
root-cause: line 27
expect: DG007
"""
import torch
import torch.nn as nn

LATENT = 16
REAL_LABEL, FAKE_LABEL = 1, 0

netG = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, 2))
netD = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
criterion = nn.BCEWithLogitsLoss()
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))


def sample_real(b):
    angle = torch.rand(b) * 6.2832
    return torch.stack([angle.cos(), angle.sin()], 1) + 0.05 * torch.randn(b, 2)


def make_labels(b, value):
    return torch.full((b,), value)  # root-cause


def discriminator_step(real):
    b = real.size(0)
    fake = netG(torch.randn(b, LATENT))
    errD_real = criterion(netD(real).view(-1), make_labels(b, REAL_LABEL))  # fails-here
    errD_fake = criterion(netD(fake.detach()).view(-1), make_labels(b, FAKE_LABEL))
    optD.zero_grad()
    (errD_real + errD_fake).backward()
    optD.step()
    return fake, errD_real + errD_fake


def generator_step(fake):
    errG = criterion(netD(fake).view(-1), make_labels(fake.size(0), REAL_LABEL))
    optG.zero_grad()
    errG.backward()
    optG.step()
    return errG


for it in range(20):
    fake, errD = discriminator_step(sample_real(64))
    errG = generator_step(fake)
print(f"Loss_D {errD.item():.3f} Loss_G {errG.item():.3f}")
