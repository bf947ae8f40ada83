"""Triplane-reconstruction trainer that makes CUDA the default tensor type when a GPU is present (torch.set_default_tensor_type('torch.cuda.FloatTensor') in a setup helper) and then iterates a DataLoader(shuffle=True); on a GPU machine the RandomSampler's randperm is placed on cuda but gets the sampler's CPU generator
source: https://github.com/ziangcao0312/DiffTF/issues/3
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (in `for data in training_loader`)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (the dataset, built after the CUDA default type, draws torch.randn on cuda with its seeded CPU generator; the shuffled DataLoader's randperm would fail the same way; line checked on an H200) at line 16; on CPU: ok
root-cause: line 38
expect: DG003
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class RaysDataset(Dataset):
    def __init__(self, n_rays=256, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.origins = torch.randn(n_rays, 3, generator=g)  # fails-here
        self.dirs = torch.nn.functional.normalize(torch.randn(n_rays, 3, generator=g), dim=1)
        self.rgb = torch.rand(n_rays, 3, generator=g)

    def __len__(self):
        return len(self.rgb)

    def __getitem__(self, i):
        return {"rays": torch.cat([self.origins[i], self.dirs[i]]), "rgb": self.rgb[i]}


class TriplaneDecoder(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, hidden), nn.ReLU(), nn.Linear(hidden, 3), nn.Sigmoid())

    def forward(self, rays):
        return self.net(rays)


def setup_device():
    if torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


def train(args):
    device = setup_device()
    model = TriplaneDecoder().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    training_loader = DataLoader(RaysDataset(), batch_size=args["batch_size"], shuffle=True)
    for epoch in range(args["epochs"]):
        for data in training_loader:
            pred = model(data["rays"].to(device))
            loss = ((pred - data["rgb"].to(device)) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train({"batch_size": 32, "epochs": 2})
