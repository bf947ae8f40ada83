"""WGAN-GP on flattened images (EKELE-NNOROM/GANs WGAN layout: device.py's Tensor alias torch.cuda.FloatTensor when CUDA is available, Generator/Discriminator moved with .cuda()): the gradient-penalty helper draws its interpolation weights with torch.rand, which stays on the CPU while the real and fake batches are CUDA tensors
source: https://github.com/EKELE-NNOROM/GANs/blob/51d2dc484ddd1b71cb83b45c00d9bc1bec33b9a5/WGAN/device.py
reported-error: (none filed; the PyTorch-GAN family builds alpha with Tensor(np.random.random(...)); the variant's torch.rand((n, 1)) fails on a GPU machine with RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (alpha is a CPU tensor, the real and fake batches are CUDA tensors; wording varies with the torch version; not run on a GPU for this set) at line 43; on CPU: ok
root-cause: line 42
expect: DG009
"""
import numpy as np
import torch
import torch.autograd as autograd
import torch.nn as nn
from torch.autograd import Variable

# ---- WGAN/device.py
cuda = True if torch.cuda.is_available() else False
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor

latent_dim, img_dim, lambda_gp, n_critic = 16, 64, 10, 2


# ---- WGAN/models.py
class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(latent_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, img_dim), nn.Tanh())

    def forward(self, z):
        return self.model(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(img_dim, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, img):
        return self.model(img)


# ---- WGAN/train.py
def compute_gradient_penalty(D, real_samples, fake_samples):
    alpha = torch.rand((real_samples.size(0), 1))  # root-cause
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)  # fails-here
    d_interpolates = D(interpolates)
    fake = Variable(Tensor(real_samples.shape[0], 1).fill_(1.0), requires_grad=False)
    gradients = autograd.grad(outputs=d_interpolates, inputs=interpolates, grad_outputs=fake,
                              create_graph=True, retain_graph=True, only_inputs=True)[0]
    return ((gradients.norm(2, dim=1) - 1) ** 2).mean()


generator, discriminator = Generator(), Discriminator()
if cuda:
    generator.cuda()
    discriminator.cuda()
optimizer_G = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4, betas=(0.5, 0.999))
dataset = np.random.default_rng(0).uniform(-1, 1, (64, img_dim)).astype(np.float32)

for i in range(4):
    imgs = torch.from_numpy(dataset[i * 16:(i + 1) * 16])
    real_imgs = Variable(imgs.type(Tensor))
    optimizer_D.zero_grad()
    z = Variable(Tensor(np.random.normal(0, 1, (imgs.shape[0], latent_dim))))
    fake_imgs = generator(z)
    gradient_penalty = compute_gradient_penalty(discriminator, real_imgs.data, fake_imgs.data)
    d_loss = -torch.mean(discriminator(real_imgs)) + torch.mean(discriminator(fake_imgs)) + lambda_gp * gradient_penalty
    d_loss.backward()
    optimizer_D.step()
    if i % n_critic == 0:
        optimizer_G.zero_grad()
        g_loss = -torch.mean(discriminator(generator(z)))
        g_loss.backward()
        optimizer_G.step()
        print(f"[Batch {i}] [D loss: {d_loss.item():.4f}] [G loss: {g_loss.item():.4f}]")
