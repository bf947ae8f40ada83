"""Multitask CycleGAN: the generators/discriminators are moved to CUDA but the image and domain-label batches from the DataLoader are fed without .cuda()
source: https://github.com/eveningglow/multitask-CycleGAN/issues/3
reported-error: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (the reporter's error) at line 35; on CPU: ok
root-cause: line 58
expect: DG009
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class FaceDataset(Dataset):
    def __init__(self, n=32, size=32):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, size, size, generator=g) * 2 - 1
        self.labels = torch.randint(0, 2, (n,), generator=g)  # 0 = male, 1 = female

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return {"image": self.images[idx], "label": self.labels[idx]}


class Generator(nn.Module):
    def __init__(self, n_domains=2):
        super().__init__()
        self.n_domains = n_domains
        self.model = nn.Sequential(nn.Conv2d(3 + n_domains, 32, 3, padding=1), nn.ReLU(),
                                   nn.Conv2d(32, 3, 3, padding=1), nn.Tanh())

    def forward(self, x, c):
        c = nn.functional.one_hot(c, self.n_domains).float()[:, :, None, None].expand(-1, -1, *x.shape[2:])
        return self.model(torch.cat([x, c], dim=1))  # fails-here


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Conv2d(3, 32, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(32, 1, 4, 2, 1))

    def forward(self, x):
        return self.main(x)


def train(epochs=2):
    use_cuda = torch.cuda.is_available()
    G, D = Generator(), Discriminator()
    if use_cuda:
        G, D = G.cuda(), D.cuda()
    optim_G = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
    optim_D = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
    mse, l1 = nn.MSELoss(), nn.L1Loss()
    loader = DataLoader(FaceDataset(), batch_size=8, shuffle=True)
    for epoch in range(epochs):
        for data in loader:
            image, label = data["image"], data["label"]  # root-cause
            target_label = 1 - label
            fake = G(image, target_label)
            recon = G(fake, label)
            d_fake = D(fake)
            loss_G = mse(d_fake, torch.ones_like(d_fake)) + 10 * l1(recon, image)
            optim_G.zero_grad()
            loss_G.backward()
            optim_G.step()

            d_real, d_fake = D(image), D(fake.detach())
            loss_D = mse(d_real, torch.ones_like(d_real)) + mse(d_fake, torch.zeros_like(d_fake))
            optim_D.zero_grad()
            loss_D.backward()
            optim_D.step()
        print("epoch %d  G %.3f  D %.3f" % (epoch, loss_G.item(), loss_D.item()))


if __name__ == "__main__":
    train()
