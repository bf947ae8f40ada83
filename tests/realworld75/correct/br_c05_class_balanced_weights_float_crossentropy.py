"""The imbalanced-class script of br05 (pytorch/pytorch #101213) with float class weights: the integer weights computed in NumPy are converted with .float() when the loss is built, so nn.CrossEntropyLoss weighs the rare classes and every class is recalled; the int64 targets from torch.from_numpy stay as they are
source: https://github.com/pytorch/pytorch/issues/101213
reported-error: "The use of nn.CrossEntropyLoss with weights (e.g. class imbalance weights) requires the weights to be of type float if used with class indices ... and can generate the following (in my opinion) rather mysterious error: loss = nn.CrossEntropyLoss(weight=torch.LongTensor([1, 2, 3])) ... RuntimeError: expected scalar type Float but found Long"
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)

# 20:5:1 imbalance, as in a fault-detection log where most windows are "normal"
n_per_class = [400, 100, 20]
X = np.concatenate([rng.normal(loc=c, scale=1.0, size=(n, 8)) for c, n in enumerate(n_per_class)]).astype(np.float32)
y = np.concatenate([np.full(n, c) for c, n in enumerate(n_per_class)])
perm = rng.permutation(len(y))
X, y = X[perm], y[perm]

counts = np.bincount(y)
class_weights = counts.max() // counts  # "how many times rarer than the majority class": [1, 4, 20]
print("class counts", counts.tolist(), "weights", class_weights.tolist())

train_ds = TensorDataset(torch.from_numpy(X), torch.from_numpy(y))
train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))
criterion = nn.CrossEntropyLoss(weight=torch.from_numpy(class_weights).float())
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(3):
    total = 0.0
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(yb)
    print(f"epoch {epoch} loss {total / len(train_ds):.4f}")

with torch.no_grad():
    pred = model(torch.from_numpy(X)).argmax(1).numpy()
for c in range(3):
    print(f"class {c} recall {(pred[y == c] == c).mean():.2f}")
