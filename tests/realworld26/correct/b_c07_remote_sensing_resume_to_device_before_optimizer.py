"""Remote-sensing segmentation trainer resumed from a checkpoint: the model is moved to its device before the optimizer is built, and optimizer.load_state_dict runs afterwards, so the restored Adam state is cast onto the parameters' device (what the mrs fix ensures by moving the optimizer state to the device on resume)
source: https://github.com/bohaohuang/mrs/pull/47
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class UNetLite(nn.Module):
    def __init__(self, n_class=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.dec = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, n_class, 3, padding=1))

    def forward(self, x):
        return self.dec(self.enc(x))


def network_train(model, loader, optimizer, device, epochs):
    for _ in range(epochs):
        for image, label in loader:
            image, label = image.to(device), label.to(device)
            loss = F.cross_entropy(model(image), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.item()


def build(device, lr, resume=None):
    model = UNetLite().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    start_epoch = 0
    if resume is not None:
        checkpoint = torch.load(resume, map_location=device)
        model.load_state_dict(checkpoint["state_dict"])
        optimizer.load_state_dict(checkpoint["opt_state_dict"])
        start_epoch = checkpoint["epoch"]
    return model, optimizer, start_epoch


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = TensorDataset(torch.rand(16, 3, 32, 32), torch.randint(0, 2, (16, 32, 32)))
    loader = DataLoader(data, batch_size=4, shuffle=True)
    model, optimizer, _ = build(device, lr=1e-3)
    network_train(model, loader, optimizer, device, epochs=1)
    path = os.path.join(tempfile.mkdtemp(), "epoch-1.pth.tar")
    torch.save({"state_dict": model.state_dict(), "opt_state_dict": optimizer.state_dict(), "epoch": 1}, path)
    model, optimizer, start = build(device, lr=1e-3, resume=path)
    print("resumed from epoch", start, "loss", round(network_train(model, loader, optimizer, device, epochs=1), 4))
