"""Image classifier training toolkit (trojan-zoo-like) that makes CUDA the default tensor type at import time whenever a GPU exists, then builds its training DataLoader with shuffle=True: RandomSampler draws its permutation with a CPU generator while torch.empty now defaults to CUDA, so the first epoch fails on a GPU machine
source: https://github.com/pytorch/pytorch/issues/39088
reported-error: ToTensor() Exception for num_workers in DataLoader when torch.set_default_tensor_type(torch.cuda.FloatTensor) (SsnL: it is always advised against using set_default_tensor_type, exactly because of these weird default behaviours)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's CPU generator under a CUDA default tensor type; not run on a GPU for this set) at line 54; on CPU: ok
root-cause: line 17
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

# ---- trojanzoo/environ.py
env = {"device": "cuda" if torch.cuda.is_available() else "cpu", "batch_size": 16, "epochs": 2}
if env["device"] == "cuda":
    torch.set_default_tensor_type(torch.cuda.FloatTensor)  # root-cause


# ---- trojanzoo/datasets/imageset.py
class ToTensor:
    def __call__(self, pic):
        return torch.as_tensor(np.asarray(pic, dtype=np.float32) / 255.0).permute(2, 0, 1)


class TinyImageSet(Dataset):
    def __init__(self, n=64, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, (n, 16, 16, 3), dtype=np.uint8)
        self.targets = rng.integers(0, 4, n)
        self.transform = ToTensor()

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return self.transform(self.images[i]), int(self.targets[i])


# ---- trojanzoo/models/model.py
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def train(model, loader, epochs):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for x, y in loader:  # fails-here
            x, y = x.to(env["device"]), y.to(env["device"])
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    loader = DataLoader(TinyImageSet(), batch_size=env["batch_size"], shuffle=True)
    train(Net().to(env["device"]), loader, env["epochs"])
