"""Fixed DCGAN/InfoGAN label convention: real_label = 1. so torch.full builds a float32 BCELoss target
source: https://github.com/AKASHKADEL/dcgan-mnist/pull/2
reported-error: RuntimeError: Found dtype Long but expected Float
outcome: ok
root-cause: none
expect: none
"""
import torch
import torch.nn as nn
import torch.optim as optim

nz, ndf, nc = 16, 8, 1
device = torch.device("cpu")

netG = nn.Sequential(nn.ConvTranspose2d(nz, 8, 4, 1, 0), nn.ReLU(True), nn.ConvTranspose2d(8, nc, 4, 2, 1), nn.Tanh())
netD = nn.Sequential(nn.Conv2d(nc, ndf, 4, 2, 1), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(ndf, 1, 4, 1, 0),
                     nn.Sigmoid())
criterion = nn.BCELoss()
real_label = 1.
fake_label = 0.
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))

for i in range(2):
    real_cpu = torch.randn(8, nc, 8, 8)
    b_size = real_cpu.size(0)
    netD.zero_grad()
    label = torch.full((b_size,), real_label, dtype=torch.float, device=device)
    errD_real = criterion(netD(real_cpu).view(-1), label)
    errD_real.backward()
    fake = netG(torch.randn(b_size, nz, 1, 1, device=device))
    label.fill_(fake_label)
    errD_fake = criterion(netD(fake.detach()).view(-1), label)
    errD_fake.backward()
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    errG = criterion(netD(fake).view(-1), label)
    errG.backward()
    optimizerG.step()
