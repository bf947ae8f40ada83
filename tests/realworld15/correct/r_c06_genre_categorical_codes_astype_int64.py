"""Music-genre tagger that converts pandas Categorical codes with .astype(np.int64) in the Dataset before torch.from_numpy, so CrossEntropyLoss gets Long targets
source: https://github.com/skorch-dev/skorch/issues/255
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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
        self.targets = torch.from_numpy(genre.codes.astype(np.int64))
        self.features = torch.from_numpy(frame[["tempo", "energy", "valence"]].to_numpy(np.float32))

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return self.features[i], self.targets[i]


rng = np.random.default_rng(0)
frame = pd.DataFrame({"genre": rng.choice(["jazz", "metal", "pop"], 90), "tempo": rng.normal(0, 1, 90),
                      "energy": rng.random(90), "valence": rng.random(90)})
ds = TrackFeatures(frame)
model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, len(ds.genres)))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for x, y in DataLoader(ds, batch_size=30, shuffle=True):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item(), "target dtype", ds.targets.dtype)
