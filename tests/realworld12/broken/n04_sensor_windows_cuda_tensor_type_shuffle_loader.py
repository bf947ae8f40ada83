"""Sensor forecasting script whose configure_device() helper makes torch.cuda.FloatTensor the default tensor type when a GPU exists, then iterates a DataLoader(shuffle=True) over sliding windows; on a GPU the RandomSampler's randperm is created on cuda with the sampler's CPU generator
source: https://github.com/pytorch/pytorch/issues/6874
reported-error: RuntimeError: randperm is only implemented for CPU (with torch.cuda.FloatTensor as default tensor type; in current releases: Expected a 'cuda' device type for generator but found 'cpu')
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator; not run on a GPU here) at line 55; on CPU: ok
root-cause: line 31
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CFG = {"window": 12, "horizon": 1, "batch_size": 16, "epochs": 2, "hidden": 16}


class Windows(Dataset):
    def __init__(self, series, window, horizon):
        self.x = torch.tensor(series, dtype=torch.float32)
        self.window, self.horizon = window, horizon

    def __len__(self):
        return len(self.x) - self.window - self.horizon

    def __getitem__(self, i):
        w = self.x[i:i + self.window]
        return w.unsqueeze(-1), self.x[i + self.window:i + self.window + self.horizon]


def configure_device():
    if torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


class Forecaster(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.rnn = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.head(out[:, -1])


def main(cfg):
    device = configure_device()
    t = np.arange(400)
    series = np.sin(t / 9.0) + 0.05 * np.random.default_rng(0).standard_normal(400)
    loader = DataLoader(Windows(series, cfg["window"], cfg["horizon"]), batch_size=cfg["batch_size"], shuffle=True)
    model = Forecaster(cfg["hidden"]).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(cfg["epochs"]):
        for xb, yb in loader:  # fails-here
            loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: mse {loss.item():.4f}")


if __name__ == "__main__":
    main(CFG)
