"""Train, save a plain state_dict, reload it with map_location=device and evaluate."""
import os
import tempfile

import torch
import torch.nn as nn


def get_device():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 16)
        self.fc2 = nn.Linear(16, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def main():
    device = get_device()
    model = Regressor().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(64, 3, device=device)
    y = x[:, :1] * 2
    for _ in range(10):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    path = os.path.join(tempfile.mkdtemp(), "regressor.pt")
    torch.save(model.state_dict(), path)

    fresh = Regressor().to(device)
    fresh.load_state_dict(torch.load(path, map_location=device))
    fresh.eval()
    with torch.no_grad():
        print("eval mse", nn.functional.mse_loss(fresh(x), y).item())


if __name__ == "__main__":
    main()
