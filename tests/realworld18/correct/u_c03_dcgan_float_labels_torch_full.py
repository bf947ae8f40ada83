"""DCGAN training loop whose label tensors are made with torch.full((b,), real_label, dtype=torch.float32), so BCELoss gets float targets
source: https://github.com/PacktPublishing/Hands-On-Generative-Adversarial-Networks-with-PyTorch-1.x/issues/4
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn

Z_DIM = 16
BATCH = 32
real_label = 1
fake_label = 0


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.ConvTranspose2d(Z_DIM, 32, 4, 1, 0), nn.BatchNorm2d(32), nn.ReLU(),
                                  nn.ConvTranspose2d(32, 1, 4, 2, 1), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(1, 32, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(32, 1, 4, 1, 0), nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1, 1).squeeze(1)


def make_labels(batch_size):
    real = torch.full((batch_size,), real_label, dtype=torch.float32)
    fake = torch.full((batch_size,), fake_label, dtype=torch.float32)
    return real, fake


def train_step(netG, netD, optG, optD, criterion, x_real):
    real, fake = make_labels(x_real.size(0))
    netD.zero_grad()
    y_real = netD(x_real)
    loss_D_real = criterion(y_real, real)
    z_noise = torch.randn(x_real.size(0), Z_DIM, 1, 1)
    x_fake = netG(z_noise)
    loss_D_fake = criterion(netD(x_fake.detach()), fake)
    (loss_D_real + loss_D_fake).backward()
    optD.step()
    netG.zero_grad()
    loss_G = criterion(netD(x_fake), real)
    loss_G.backward()
    optG.step()
    return loss_D_real.item() + loss_D_fake.item(), loss_G.item()


data = torch.from_numpy(np.tanh(np.random.default_rng(0).normal(size=(128, 1, 8, 8))).astype(np.float32))
netG, netD = Generator(), Discriminator()
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCELoss()
for epoch in range(2):
    for i in range(0, 128, BATCH):
        lossD, lossG = train_step(netG, netD, optG, optD, criterion, data[i:i + BATCH])
    print(f"epoch {epoch} loss_D {lossD:.3f} loss_G {lossG:.3f}")
