"""DCGAN trainer whose utils.setup_torch() picks the legacy tensor type string from a dict and calls torch.set_default_tensor_type() (CPU run: "torch.FloatTensor"); training works but every run emits the deprecation warning
source: https://github.com/pytorch/pytorch/pull/99521
reported-error: torch.set_default_tensor_type() should not be used anymore (maintainer plan to deprecate it; since 2.1 it warns)
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 20
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn

# ---- utils.py
TENSOR_TYPES = {"cpu": "torch.FloatTensor", "cuda": "torch.cuda.FloatTensor"}


def setup_torch(seed=0):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.manual_seed(seed)
    np.random.seed(seed)
    torch.set_default_tensor_type(TENSOR_TYPES[device])  # root-cause
    return torch.device(device)


# ---- models.py
class Generator(nn.Module):
    def __init__(self, nz=16, out=64):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 64), nn.ReLU(), nn.Linear(64, out), nn.Tanh())

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self, inp=64):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(inp, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1), nn.Sigmoid())

    def forward(self, x):
        return self.main(x).view(-1)


# ---- train.py
device = setup_torch()
netG, netD = Generator().to(device), Discriminator().to(device)
optG = torch.optim.Adam(netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
criterion = nn.BCELoss()
real_data = torch.from_numpy(np.tanh(np.random.randn(256, 64)).astype(np.float32))

for step in range(20):
    real = real_data[torch.randint(0, 256, (32,))].to(device)
    noise = torch.randn(32, 16, device=device)
    fake = netG(noise)
    lossD = criterion(netD(real), torch.ones(32, device=device)) + criterion(netD(fake.detach()), torch.zeros(32, device=device))
    optD.zero_grad()
    lossD.backward()
    optD.step()
    lossG = criterion(netD(fake), torch.ones(32, device=device))
    optG.zero_grad()
    lossG.backward()
    optG.step()
print("lossD", round(lossD.item(), 3), "lossG", round(lossG.item(), 3))
