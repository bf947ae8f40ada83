"""H18 fixed: map_location puts every tensor of the checkpoint on this machine's device."""
import os
import tempfile

import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def save_checkpoint(model, optimizer, epoch, path):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch}, path)


def load_checkpoint(model, optimizer, path):
    checkpoint = torch.load(path, map_location=device)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    return checkpoint["epoch"]


if __name__ == "__main__":
    model = nn.Linear(8, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "last.pt")
        save_checkpoint(model, optimizer, epoch=3, path=path)
        start_epoch = load_checkpoint(model, optimizer, path) + 1

    x = torch.randn(32, 8, device=device)
    y = torch.randint(0, 2, (32,), device=device)
    for epoch in range(start_epoch, start_epoch + 2):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
