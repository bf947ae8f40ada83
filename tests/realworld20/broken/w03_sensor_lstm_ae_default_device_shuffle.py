"""Sensor-stream anomaly detector (LSTM autoencoder over sliding windows): get_default_device() calls torch.set_default_device("cuda") whenever a GPU is present, and the training DataLoader keeps shuffle=True, so RandomSampler's torch.randperm is created on the default CUDA device with its CPU generator
source: https://github.com/pytorch/pytorch/issues/110820
reported-error: RuntimeError: Expected a 'mps:0' generator device but found 'cpu' (DataLoader shuffle=True after torch.set_default_device)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on the default CUDA device with a CPU generator) at line 58; on CPU: ok
root-cause: line 17
expect: DG003
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def get_default_device():
    if torch.cuda.is_available():
        torch.set_default_device("cuda")  # root-cause
        return torch.device("cuda")
    return torch.device("cpu")


class WindowDataset(Dataset):
    def __init__(self, frame, window=32):
        values = frame[["temp", "vibration", "current"]].to_numpy(np.float32)
        values = (values - values.mean(0)) / values.std(0)
        self.windows = np.stack([values[i:i + window] for i in range(len(values) - window)])

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        return torch.from_numpy(self.windows[i])


class LSTMAutoencoder(nn.Module):
    def __init__(self, n_feat=3, hidden=16):
        super().__init__()
        self.enc = nn.LSTM(n_feat, hidden, batch_first=True)
        self.dec = nn.LSTM(hidden, n_feat, batch_first=True)

    def forward(self, x):
        z, _ = self.enc(x)
        out, _ = self.dec(z)
        return out


def main():
    device = get_default_device()
    rng = np.random.default_rng(1)
    t = np.arange(2000)
    frame = pd.DataFrame({"temp": np.sin(t / 50) + rng.normal(0, .1, t.size),
                          "vibration": rng.normal(0, 1, t.size), "current": np.cos(t / 30)})
    loader = DataLoader(WindowDataset(frame), batch_size=64, shuffle=True)
    model = LSTMAutoencoder().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        total = 0.0
        for batch in loader:  # fails-here
            batch = batch.to(device)
            loss = nn.functional.mse_loss(model(batch), batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: reconstruction {total / len(loader):.4f}")


if __name__ == "__main__":
    main()
