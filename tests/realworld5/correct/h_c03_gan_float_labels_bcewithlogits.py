"""DCGAN/AnoGAN discriminator step with real/fake labels created as float tensors for BCEWithLogitsLoss
source: https://github.com/YutaroOgawa/pytorch_advanced/issues/144
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def make_G(z_dim=20, size=16):
    return nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, size * size), nn.Tanh(), nn.Unflatten(1, (1, size, size)))


def make_D(size=16):
    return nn.Sequential(nn.Flatten(), nn.Linear(size * size, 64), nn.LeakyReLU(0.1), nn.Linear(64, 1))


def train_model(G, D, dataloader, num_epochs, z_dim=20):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    g_optimizer = torch.optim.Adam(G.parameters(), 1e-4, [0.0, 0.9])
    d_optimizer = torch.optim.Adam(D.parameters(), 4e-4, [0.0, 0.9])
    criterion = nn.BCEWithLogitsLoss(reduction="mean")
    G.to(device)
    D.to(device)
    for epoch in range(num_epochs):
        for (images,) in dataloader:
            images = images.to(device)
            n = images.size(0)
            label_real = torch.full((n,), 1.0, device=device)
            label_fake = torch.full((n,), 0.0, device=device)
            d_out_real = D(images)
            d_out_fake = D(G(torch.randn(n, z_dim, device=device)))
            d_loss = criterion(d_out_real.view(-1), label_real) + criterion(d_out_fake.view(-1), label_fake)
            d_optimizer.zero_grad()
            d_loss.backward()
            d_optimizer.step()
            g_loss = criterion(D(G(torch.randn(n, z_dim, device=device))).view(-1), label_real)
            g_optimizer.zero_grad()
            g_loss.backward()
            g_optimizer.step()
        print("epoch", epoch, d_loss.item(), g_loss.item())
    return G, D


if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.rand(32, 1, 16, 16) * 2 - 1), batch_size=8, shuffle=True)
    train_model(make_G(), make_D(), loader, num_epochs=2)
