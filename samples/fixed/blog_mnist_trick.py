"""The blog's MNIST template done right (offline).

No global default tensor type: pick a device, move the model once, let a DataLoader
batch the samples (it collates the int labels into an int64 tensor), and move every
batch to the model's device.
"""
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class SyntheticMNIST(Dataset):
    """Stands in for torchvision.datasets.MNIST(root, train=True, download=True, transform=...)."""

    def __init__(self, n=512, seed=0):
        rng = np.random.default_rng(seed)
        self.data = rng.integers(0, 256, size=(n, 28, 28), dtype=np.uint8)
        self.targets = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        image = torch.from_numpy(self.data[index]).float().div(255).unsqueeze(0)  # ToTensor()
        image = (image - 0.5) / 0.5  # Normalize((0.5,), (0.5,))
        return image, int(self.targets[index])


train_loader = DataLoader(SyntheticMNIST(), batch_size=64, shuffle=True)

model = torch.nn.Sequential(torch.nn.Linear(784, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

for epoch in range(10):
    for inputs, labels in train_loader:
        inputs, labels = inputs.to(device), labels.to(device)
        optimizer.zero_grad()
        outputs = model(inputs.view(-1, 28 * 28))
        loss = F.cross_entropy(outputs, labels)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
