"""The pytorch/examples VAE (fc1/fc21/fc22/fc3/fc4, reparameterize, loss = BCE(recon_x, x, sum) + KLD) trained on a single MNIST class: instead of the ToTensor() pipeline the reporter builds a TensorDataset straight from dataset.data, the uint8 0..255 pixel tensor, with .float() and no division by 255, so the binary cross-entropy target holds values up to 255
source: https://github.com/pytorch/pytorch/issues/36647
reported-error: "THCUNN/BCECriterion.cu:42: ... Assertion `input >= 0. && input <= 1.` failed." ("I tried to train an VAE only on one class of the dataset MNIST ... The single change in the code which I did was: train_dataset = torch.utils.data.TensorDataset(torch.tensor(dataset.data[dataset.test_labels == 5].unsqueeze(1)).float(), ...)"; the thread ran on CUDA, where the BCE kernel asserts instead of raising)
outcome: RuntimeError: all elements of target should be between 0 and 1 at line 80
root-cause: line 42
expect: DG007
"""
import warnings

import numpy as np
import torch
import torch.utils.data
from torch import nn, optim
from torch.nn import functional as F

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(1)
device = torch.device("cpu")
batch_size, epochs, log_interval = 32, 2, 2


class FakeMNIST:
    """Stand-in for torchvision.datasets.MNIST(root): .data is a uint8 (N, 28, 28) tensor of 0..255 pixels,
    .targets (alias .test_labels) an int64 tensor of digit labels, exactly what the dataset object exposes."""

    def __init__(self, n=300):
        rng = np.random.default_rng(0)
        yy, xx = np.mgrid[:28, :28]
        targets = rng.integers(0, 10, n)
        imgs = []
        for d in targets:
            r = 5 + d % 5
            ring = np.abs(np.hypot(yy - 14, xx - 14) - r) < 1.5 + d / 10
            imgs.append(np.clip(ring * rng.uniform(180, 255) + rng.normal(0, 10, (28, 28)), 0, 255).astype(np.uint8))
        self.data = torch.from_numpy(np.stack(imgs))
        self.targets = torch.from_numpy(targets)
        self.test_labels = self.targets


dataset = FakeMNIST()
train_dataset = torch.utils.data.TensorDataset(
    torch.tensor(dataset.data[dataset.test_labels == 5].unsqueeze(1)).float(),  # root-cause
    torch.tensor(dataset.targets[dataset.test_labels == 5]).float())
train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=batch_size, shuffle=True)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 400)
        self.fc21 = nn.Linear(400, 20)
        self.fc22 = nn.Linear(400, 20)
        self.fc3 = nn.Linear(20, 400)
        self.fc4 = nn.Linear(400, 784)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h3 = F.relu(self.fc3(z))
        return torch.sigmoid(self.fc4(h3))

    def forward(self, x):
        mu, logvar = self.encode(x.view(-1, 784))
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


model = VAE().to(device)
optimizer = optim.Adam(model.parameters(), lr=1e-3)


def loss_function(recon_x, x, mu, logvar):
    BCE = F.binary_cross_entropy(recon_x, x.view(-1, 784), reduction='sum')  # fails-here
    KLD = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return BCE + KLD


def train(epoch):
    model.train()
    train_loss = 0
    for batch_idx, (data, _) in enumerate(train_loader):
        data = data.to(device)
        optimizer.zero_grad()
        recon_batch, mu, logvar = model(data)
        loss = loss_function(recon_batch, data, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print('Train Epoch: {} [{}/{}]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), len(train_loader.dataset), loss.item() / len(data)))
    print('====> Epoch: {} Average loss: {:.4f}'.format(epoch, train_loss / len(train_loader.dataset)))


if __name__ == "__main__":
    for epoch in range(1, epochs + 1):
        train(epoch)
    with torch.no_grad():
        sample = model.decode(torch.randn(8, 20).to(device))
        print("sample range", round(sample.min().item(), 3), round(sample.max().item(), 3))
