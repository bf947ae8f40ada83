"""Speaker-verification model with a GE2E-style scoring head: the learnable-free reference centroids are kept in a plain tensor attribute set in __init__ (not a registered buffer), so model.to(device) moves the embedding network but not the centroids, and the cosine scoring mixes CUDA embeddings with CPU centroids
source: https://theneuralbase.com/pytorch/errors/runtimeerror-expected-all-tensors-on-same-device/
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the page's checklist: model moved, batch moved, but a tensor created or held elsewhere stays on the CPU)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the centroid attribute is not moved by model.to(device); wording varies with the torch version; not run on a GPU for this set) at line 50; on CPU: ok
root-cause: line 40
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


# ---- data/speakers.py
class UtteranceDataset(Dataset):
    def __init__(self, n_speakers=6, per_speaker=10, frames=40, n_mels=40, seed=0):
        rng = np.random.default_rng(seed)
        centers = rng.standard_normal((n_speakers, n_mels)).astype(np.float32)
        self.items = []
        for spk in range(n_speakers):
            for _ in range(per_speaker):
                mel = centers[spk] + 0.3 * rng.standard_normal((frames, n_mels)).astype(np.float32)
                self.items.append((mel, spk))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        mel, spk = self.items[i]
        return torch.from_numpy(mel), spk


# ---- model/speaker_encoder.py
class SpeakerEncoder(nn.Module):
    def __init__(self, n_mels=40, hidden=64, emb=32, n_speakers=6):
        super().__init__()
        self.lstm = nn.LSTM(n_mels, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, emb)
        self.centroids = F.normalize(torch.randn(n_speakers, emb), dim=-1)  # root-cause
        self.scale = nn.Parameter(torch.tensor(10.0))
        self.bias = nn.Parameter(torch.tensor(-5.0))

    def embed(self, mels):
        _, (h, _) = self.lstm(mels)
        return F.normalize(self.proj(h[-1]), dim=-1)

    def forward(self, mels):
        e = self.embed(mels)
        return self.scale * (e @ self.centroids.T) + self.bias  # fails-here

    @torch.no_grad()
    def update_centroids(self, mels, speakers, momentum=0.9):
        e = self.embed(mels)
        for spk in speakers.unique():
            c = e[speakers == spk].mean(0)
            self.centroids[spk] = F.normalize(momentum * self.centroids[spk] + (1 - momentum) * c.to(self.centroids.device), dim=-1)


def train(model, loader, device, epochs=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for mels, speakers in loader:
            mels, speakers = mels.to(device), speakers.to(device)
            loss = F.cross_entropy(model(mels), speakers)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.update_centroids(mels, speakers)
        print("epoch", epoch, "loss", round(loss.item(), 4))


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = SpeakerEncoder().to(device)
    train(model, DataLoader(UtteranceDataset(), batch_size=12, shuffle=True), device)
