"""Bird-song detector streaming fixed-length chunks from an IterableDataset; the chunks are band-passed with scipy.signal.sosfiltfilt (float64 output) and handed to a float32 Conv1d front end without a cast
source: https://github.com/keunwoochoi/torchaudio-contrib/pull/55
reported-error: RuntimeError: Input type (double) and bias type (float) should be the same (audio front end not robust to the incoming tensor dtype)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 40
root-cause: line 29
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
from scipy import signal
from torch.utils.data import DataLoader, IterableDataset

SR = 8000
SOS = signal.butter(4, [500, 3000], btype="bandpass", fs=SR, output="sos")


class ChunkStream(IterableDataset):
    def __init__(self, n_recordings=6, chunk=4000, seed=0):
        self.n_recordings, self.chunk, self.seed = n_recordings, chunk, seed

    def __iter__(self):
        rng = np.random.default_rng(self.seed)
        for _ in range(self.n_recordings):
            rec = rng.normal(scale=0.1, size=self.chunk * 4).astype(np.float32)
            for start in range(0, len(rec), self.chunk):
                piece = signal.sosfiltfilt(SOS, rec[start:start + self.chunk])
                label = int(rng.random() < 0.5)
                yield torch.from_numpy(piece.copy()).unsqueeze(0), label  # root-cause


class FrontEnd(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(1, 16, 64, stride=16), nn.ReLU(),
                                  nn.Conv1d(16, 32, 8, stride=4), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        self.fc = nn.Linear(32, 2)

    def forward(self, wav):
        return self.fc(self.conv(wav).squeeze(-1))  # fails-here


def train(model, loader):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step, (wav, label) in enumerate(loader):
        logits = model(wav)
        loss = nn.functional.cross_entropy(logits, label)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return step


if __name__ == "__main__":
    print("steps", train(FrontEnd(), DataLoader(ChunkStream(), batch_size=4)))
