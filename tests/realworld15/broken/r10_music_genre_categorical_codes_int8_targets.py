"""Music-genre tagger whose genre labels are pandas Categorical codes (int8 for few categories); the Dataset returns torch.from_numpy(codes) and CrossEntropyLoss rejects the Char targets
source: https://github.com/skorch-dev/skorch/issues/255
reported-error: RuntimeError: expected object of type torch.cuda.LongTensor but found type torch.cuda.IntTensor for argument #2 'target' (nll_loss on Windows)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Char at line 46
root-cause: line 19
expect: DG006
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class TrackFeatures(Dataset):
    def __init__(self, frame):
        genre = pd.Categorical(frame["genre"])
        self.genres = list(genre.categories)
        self.targets = torch.from_numpy(genre.codes)  # root-cause
        self.features = torch.from_numpy(frame[["tempo", "energy", "valence", "loudness"]].to_numpy(np.float32))

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return self.features[i], self.targets[i]


rng = np.random.default_rng(0)
frame = pd.DataFrame({
    "genre": rng.choice(["jazz", "metal", "pop", "folk"], 120),
    "tempo": rng.normal(120, 20, 120),
    "energy": rng.random(120),
    "valence": rng.random(120),
    "loudness": rng.normal(-8, 3, 120),
})
frame[["tempo", "loudness"]] = (frame[["tempo", "loudness"]] - frame[["tempo", "loudness"]].mean()) / frame[["tempo", "loudness"]].std()
ds = TrackFeatures(frame)
model = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, len(ds.genres)))
criterion = nn.CrossEntropyLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def evaluate_batch(model, x, y):
    logits = model(x)
    return criterion(logits, y), (logits.argmax(1) == y).float().mean()  # fails-here


for epoch in range(2):
    for x, y in DataLoader(ds, batch_size=32, shuffle=True):
        loss, acc = evaluate_batch(model, x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", loss.item(), "acc", acc.item())
