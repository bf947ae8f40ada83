"""Galaxy-morphology autoencoder (hyrax-style pipeline) that makes the accelerator the default device at start-up so every tensor is created there, then trains from a DataLoader(shuffle=True); the RandomSampler's randperm draws with a CPU generator under a CUDA default device
source: https://github.com/lincc-frameworks/hyrax/pull/924
reported-error: Need to create the torch Generator on the correct device: the torch generator will by default be created on CPU, but it needs to be in the same place as the rest of the data (training fails otherwise)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (the RandomSampler's randperm runs under the CUDA default device; not run on a GPU for this set) at line 31; on CPU: ok
root-cause: line 17
expect: DG003
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

config = {"train": {"batch_size": 8, "epochs": 2, "shuffle": True}}


def setup_device():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.set_default_device(device)  # root-cause
    return device


def make_dataset(n=32):
    cutouts = torch.rand(n, 1, 16, 16)
    return TensorDataset(cutouts)


def train(dataset, cfg):
    model = nn.Sequential(nn.Flatten(), nn.Linear(256, 8), nn.ReLU(), nn.Linear(8, 256))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(dataset, batch_size=cfg["batch_size"], shuffle=cfg["shuffle"])
    for epoch in range(cfg["epochs"]):
        for (x,) in loader:  # fails-here
            loss = nn.functional.mse_loss(model(x), x.flatten(1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    setup_device()
    train(make_dataset(), config["train"])
