"""Trainer that sets the default device at run time and gives its shuffling DataLoader a generator on that same device (the workaround posted in the thread)
source: https://github.com/GXYM/TextBPN-Plus-Plus/issues/24
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TextDataset(Dataset):
    def __init__(self, n=48):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        img = torch.full((3, 16, 16), float(i) / self.n)
        return img, torch.tensor(i % 2)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    torch.set_default_device(device)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(TextDataset(), batch_size=8, shuffle=True, generator=torch.Generator(device=device))
    for epoch in range(2):
        for img, label in loader:
            loss = nn.functional.cross_entropy(model(img.to(device)), label.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())


if __name__ == "__main__":
    main()
