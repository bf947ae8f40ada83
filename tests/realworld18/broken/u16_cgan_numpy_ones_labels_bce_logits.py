"""Conditional GAN with a logits discriminator: the GANLabels helper caches np.ones/np.zeros label arrays created with dtype=int, the trainer wraps them with torch.from_numpy and BCEWithLogitsLoss cannot write a float result into the Long target type
source: https://github.com/shivamswarnkar/Image-Generator/issues/1
reported-error: errD_real = criterion(real_outputD, labels) ... RuntimeError: Found dtype Long but expected Float (DCGAN train.py on a custom dataset with a newer torch)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 55
root-cause: line 18
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, Z_DIM, X_DIM = 4, 8, 16


class GANLabels:
    def __init__(self, batch_size, smoothing=False):
        self.real = np.ones((batch_size, 1), dtype=int)  # root-cause
        self.fake = np.zeros((batch_size, 1), dtype=int)


class CondGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_CLASSES, 4)
        self.net = nn.Sequential(nn.Linear(Z_DIM + 4, 32), nn.ReLU(), nn.Linear(32, X_DIM))

    def forward(self, z, c):
        return self.net(torch.cat([z, self.emb(c)], 1))


class CondCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_CLASSES, 4)
        self.net = nn.Sequential(nn.Linear(X_DIM + 4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x, c):
        return self.net(torch.cat([x, self.emb(c)], 1))


class CGANTrainer:
    def __init__(self, batch_size):
        self.G, self.D = CondGenerator(), CondCritic()
        self.optG = torch.optim.Adam(self.G.parameters(), 2e-4, betas=(0.5, 0.999))
        self.optD = torch.optim.Adam(self.D.parameters(), 2e-4, betas=(0.5, 0.999))
        self.labels = GANLabels(batch_size)
        self.criterion = nn.BCEWithLogitsLoss()

    def step(self, x, c):
        real_t = torch.from_numpy(self.labels.real)
        fake_t = torch.from_numpy(self.labels.fake)
        z = torch.randn(len(x), Z_DIM)
        fake = self.G(z, c)
        d_loss = self.criterion(self.D(x, c), real_t) + self.criterion(self.D(fake.detach(), c), fake_t)  # fails-here
        self.optD.zero_grad()
        d_loss.backward()
        self.optD.step()
        g_loss = self.criterion(self.D(fake, c), real_t)
        self.optG.zero_grad()
        g_loss.backward()
        self.optG.step()
        return d_loss.item(), g_loss.item()


rng = np.random.default_rng(0)
classes = rng.integers(0, N_CLASSES, 256)
X = (rng.normal(size=(256, X_DIM)) + classes[:, None]).astype(np.float32)
trainer = CGANTrainer(batch_size=32)
for epoch in range(2):
    for i in range(0, 256, 32):
        d, g = trainer.step(torch.from_numpy(X[i:i + 32]), torch.from_numpy(classes[i:i + 32]))
    print(f"epoch {epoch} d {d:.3f} g {g:.3f}")
