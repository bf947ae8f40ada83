"""AnoGAN/DCGAN discriminator training where the real/fake labels are built with torch.full(..., 1) (int64) and given to BCEWithLogitsLoss
source: https://github.com/YutaroOgawa/pytorch_advanced/issues/144
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 49
root-cause: line 44
expect: DG007
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Generator(nn.Module):
    def __init__(self, z_dim=20, image_size=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, image_size * image_size), nn.Tanh())
        self.image_size = image_size

    def forward(self, z):
        return self.net(z).view(-1, 1, self.image_size, self.image_size)


class Discriminator(nn.Module):
    def __init__(self, image_size=16):
        super().__init__()
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(image_size * image_size, 64), nn.LeakyReLU(0.1), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def train_model(G, D, dataloader, num_epochs, z_dim=20):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    print("使用デバイス：", device)
    g_optimizer = torch.optim.Adam(G.parameters(), 1e-4, [0.0, 0.9])
    d_optimizer = torch.optim.Adam(D.parameters(), 4e-4, [0.0, 0.9])
    criterion = nn.BCEWithLogitsLoss(reduction="mean")
    G.to(device)
    D.to(device)
    for epoch in range(num_epochs):
        for (images,) in dataloader:
            images = images.to(device)
            mini_batch_size = images.size()[0]
            label_real = torch.full((mini_batch_size,), 1).to(device)  # root-cause
            label_fake = torch.full((mini_batch_size,), 0).to(device)
            d_out_real = D(images)
            input_z = torch.randn(mini_batch_size, z_dim).to(device)
            d_out_fake = D(G(input_z))
            d_loss_real = criterion(d_out_real.view(-1), label_real)  # fails-here
            d_loss_fake = criterion(d_out_fake.view(-1), label_fake)
            d_loss = d_loss_real + d_loss_fake
            d_optimizer.zero_grad()
            d_loss.backward()
            d_optimizer.step()
            g_loss = criterion(D(G(torch.randn(mini_batch_size, z_dim).to(device))).view(-1), label_real)
            g_optimizer.zero_grad()
            g_loss.backward()
            g_optimizer.step()
    return G, D


if __name__ == "__main__":
    train_dataloader = DataLoader(TensorDataset(torch.rand(32, 1, 16, 16) * 2 - 1), batch_size=8, shuffle=True)
    G_update, D_update = train_model(Generator(), Discriminator(), dataloader=train_dataloader, num_epochs=2)
