"""Small CNN image-classifier whose utils module was copied from a popular "PyTorch common code snippets" collection: setup_env() runs torch.set_default_tensor_type(torch.FloatTensor) because "FloatTensor is far faster than DoubleTensor"; on CPU the call changes nothing (float32 is already the default) but it is deprecated since PyTorch 2.1 and warns, while the NumPy data is converted with torch.from_numpy(ndarray).float() anyway
source: https://github.com/yflfly/learn_pytorch/blob/ae29a5f9eaa5cd75605dcc43e14264c57fb5d11f/pytorch%E5%B8%B8%E7%94%A8%E4%BB%A3%E7%A0%81%E6%AE%B5%E9%9B%86%E5%90%88/4-%E6%95%B0%E6%8D%AE%E7%B1%BB%E5%9E%8B%E8%BD%AC%E6%8D%A2.py
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives. (the snippet collection's "data type conversion" file opens with this call)
outcome: ok (silent: set_default_tensor_type at line 22 prints the deprecation UserWarning; training itself runs in float32)
root-cause: line 22
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

cfg = {"seed": 0, "batch_size": 16, "lr": 1e-3, "epochs": 2, "num_classes": 3}


# ---- utils.py (from the snippet collection: basic setup and type conversion)
def setup_env(seed):
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    # FloatTensor is much faster than DoubleTensor: make it the default
    torch.set_default_tensor_type(torch.FloatTensor)  # root-cause  # fails-here


def to_tensor(ndarray):
    return torch.from_numpy(ndarray).float()


# ---- data.py
class ShapesDataset(Dataset):
    def __init__(self, n=96, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.random((n, 1, 16, 16))
        self.labels = rng.integers(0, cfg["num_classes"], n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return to_tensor(self.images[idx]), int(self.labels[idx])


# ---- model.py (the collection's "simple two-layer conv net")
class ConvNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.layer1 = nn.Sequential(nn.Conv2d(1, 8, 5, padding=2), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2))
        self.layer2 = nn.Sequential(nn.Conv2d(8, 16, 5, padding=2), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.fc = nn.Linear(4 * 4 * 16, num_classes)

    def forward(self, x):
        out = self.layer2(self.layer1(x))
        return self.fc(out.reshape(out.size(0), -1))


def main():
    setup_env(cfg["seed"])
    loader = DataLoader(ShapesDataset(), batch_size=cfg["batch_size"], shuffle=True)
    model = ConvNet(cfg["num_classes"])
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        for images, labels in loader:
            loss = criterion(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f} dtype {images.dtype}")


if __name__ == "__main__":
    main()
