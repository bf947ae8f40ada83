"""Bird-call detector whose Dataset still returns the float64 NumPy mel-spectrogram; the custom collate_fn stacks the batch and converts it with .float() before it reaches the Conv2d Trainer
source: https://github.com/librosa/librosa/issues/825
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def melspectrogram(y, n_fft=256, hop=128, n_mels=32):
    frames = np.lib.stride_tricks.sliding_window_view(y, n_fft)[::hop] * np.hanning(n_fft)
    S = np.abs(np.fft.rfft(frames, axis=-1)) ** 2
    fb = np.random.default_rng(3).random((n_mels, S.shape[-1]))
    return np.log1p(fb @ S.T)


class CallDataset(Dataset):
    def __init__(self, n=32, seed=0):
        rng = np.random.default_rng(seed)
        self.clips = rng.standard_normal((n, 4096)).astype(np.float32)
        self.labels = rng.integers(0, 2, n)

    def __len__(self):
        return len(self.clips)

    def __getitem__(self, i):
        return torch.from_numpy(melspectrogram(self.clips[i])).unsqueeze(0), int(self.labels[i])


def collate_fn(batch):
    specs, labels = zip(*batch)
    return torch.stack(specs).float(), torch.tensor(labels)


class Trainer:
    def __init__(self, cfg):
        self.device = torch.device(cfg["device"])
        self.model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                                   nn.Flatten(), nn.Linear(8, 2)).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])

    def train_epoch(self, loader):
        for spec, label in loader:
            spec, label = spec.to(self.device), label.to(self.device)
            loss = nn.functional.cross_entropy(self.model(spec), label)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()


trainer = Trainer({"device": "cpu", "lr": 1e-3})
loader = DataLoader(CallDataset(), batch_size=8, shuffle=True, collate_fn=collate_fn)
print("loss", trainer.train_epoch(loader))
