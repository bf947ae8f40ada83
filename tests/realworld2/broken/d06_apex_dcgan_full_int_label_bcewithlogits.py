"""DCGAN amp example: discriminator labels built with torch.full from an int real_label, fed to BCEWithLogitsLoss
source: https://github.com/NVIDIA/apex/issues/1039
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 74
root-cause: line 71
expect: DG007
"""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim

parser = argparse.ArgumentParser()
parser.add_argument('--batchSize', type=int, default=16)
parser.add_argument('--nz', type=int, default=16)
parser.add_argument('--ngf', type=int, default=8)
parser.add_argument('--ndf', type=int, default=8)
parser.add_argument('--niter', type=int, default=1)
parser.add_argument('--lr', type=float, default=0.0002)
parser.add_argument('--opt_level', default='O1')
opt = parser.parse_args([])

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
use_amp = device.type == "cuda"
nz, ngf, ndf, nc = opt.nz, opt.ngf, opt.ndf, 1


class Generator(nn.Module):
    def __init__(self):
        super(Generator, self).__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf), nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False), nn.Tanh())

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super(Discriminator, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False))  # no Sigmoid: BCEWithLogitsLoss under amp

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


netG = Generator().to(device)
netD = Discriminator().to(device)
criterion = nn.BCEWithLogitsLoss()
fixed_noise = torch.randn(opt.batchSize, nz, 1, 1, device=device)
real_label = 1
fake_label = 0
optimizerD = optim.Adam(netD.parameters(), lr=opt.lr, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=opt.lr, betas=(0.5, 0.999))
scaler = torch.amp.GradScaler(device.type, enabled=use_amp)

dataloader = [(torch.rand(opt.batchSize, nc, 16, 16) * 2 - 1, torch.zeros(opt.batchSize)) for _ in range(4)]

for epoch in range(opt.niter):
    for i, data in enumerate(dataloader, 0):
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        real_cpu = data[0].to(device)
        batch_size = real_cpu.size(0)
        label = torch.full((batch_size,), real_label, device=device)  # root-cause
        with torch.autocast(device_type=device.type, enabled=use_amp):
            output = netD(real_cpu)
            errD_real = criterion(output, label)  # fails-here
        scaler.scale(errD_real).backward()
        noise = torch.randn(batch_size, nz, 1, 1, device=device)
        with torch.autocast(device_type=device.type, enabled=use_amp):
            fake = netG(noise)
            label.fill_(fake_label)
            output = netD(fake.detach())
            errD_fake = criterion(output, label)
        scaler.scale(errD_fake).backward()
        scaler.step(optimizerD)
        # (2) Update G network: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(real_label)
        with torch.autocast(device_type=device.type, enabled=use_amp):
            output = netD(fake)
            errG = criterion(output, label)
        scaler.scale(errG).backward()
        scaler.step(optimizerG)
        scaler.update()
        print('[%d/%d][%d] Loss_D: %.4f Loss_G: %.4f' % (epoch, opt.niter, i, (errD_real + errD_fake).item(), errG.item()))
