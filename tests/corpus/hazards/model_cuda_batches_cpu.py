import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class AutoEncoder(nn.Module):
    def __init__(self, dim=16, code=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 8), nn.ReLU(), nn.Linear(8, code))
        self.decoder = nn.Sequential(nn.Linear(code, 8), nn.ReLU(), nn.Linear(8, dim))

    def forward(self, x):
        return self.decoder(self.encoder(x))


def build():
    model = AutoEncoder()
    if torch.cuda.is_available():
        model = model.cuda()
    return model


def run_epoch(model, loader, opt):
    for (batch,) in loader:
        opt.zero_grad()
        recon = model(batch)  # expect: DG009
        loss = nn.functional.mse_loss(recon, batch)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.randn(100, 16)), batch_size=20, shuffle=True)
    model = build()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    run_epoch(model, loader, opt)
