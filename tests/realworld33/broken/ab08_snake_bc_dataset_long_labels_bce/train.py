"""Snake behavioural cloning (MichalCiupak/WSI snake_neural layout: BCDataset.py wraps the recorded game states, model.py turns a state into features and holds the network): the network scores the four directions with a sigmoid and is trained with BCELoss on one-hot directions, but BCDataset stores the labels as a LongTensor, and BCELoss refuses int64 targets
source: https://github.com/MichalCiupak/WSI/blob/e80bfd9df7885431319ff83f8d6ca04b0599a794/snake_neural/BCDataset.py
reported-error: (the repository's BCDataset uses torch.LongTensor(labels), right for class indices; fed as one-hot targets to BCELoss it fails with RuntimeError: Found dtype Long but expected Float)
outcome: RuntimeError: Found dtype Long but expected Float at train.py:33
root-cause: BCDataset.py:8
expect: DG007
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from BCDataset import BCDataset
from model import SnakeNet, game_state_to_data_sample

block_size, bounds = 30, (300, 300)
rng = np.random.default_rng(0)
features, labels = [], []
for _ in range(400):
    cells = [(int(x) * block_size, int(y) * block_size) for x, y in rng.integers(0, 10, size=(4, 2))]
    food = tuple(int(v) * block_size for v in rng.integers(0, 10, size=2))
    state = {"food": food, "snake_body": cells}
    features.append(game_state_to_data_sample(state, bounds, block_size))
    labels.append(np.eye(4)[rng.integers(0, 4)])  # the recorded human move, one-hot

loader = DataLoader(BCDataset(np.array(features), np.array(labels)), batch_size=32, shuffle=True)
model = SnakeNet()
criterion = nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)  # fails-here
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
