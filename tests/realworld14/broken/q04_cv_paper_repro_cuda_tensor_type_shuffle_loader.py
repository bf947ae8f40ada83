"""CV paper re-implementation whose Config.device property calls torch.set_default_tensor_type('torch.cuda.FloatTensor') as a side effect when CUDA is present; the training DataLoader(shuffle=True) then fails in RandomSampler (randperm on CUDA with a CPU generator)
source: https://github.com/FroyoZzz/CV-Papers-Codes/issues/2
reported-error: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator; not run on a GPU here) at line 50; on CPU: ok
root-cause: line 21
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Config:
    batch_size = 16
    epochs = 2

    @property
    def device(self):
        if torch.cuda.is_available():
            torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
            return torch.device("cuda")
        return torch.device("cpu")


class TinyVGG(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


def make_loader(cfg):
    rng = np.random.default_rng(0)
    images = torch.from_numpy(rng.random((64, 3, 16, 16), dtype=np.float32))
    labels = torch.from_numpy(rng.integers(0, 10, 64))
    return DataLoader(TensorDataset(images, labels), batch_size=cfg.batch_size, shuffle=True)


cfg = Config()
device = cfg.device
model = TinyVGG().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = make_loader(cfg)
for epoch in range(cfg.epochs):
    for images, labels in loader:  # fails-here
        images, labels = images.to(device), labels.to(device)
        loss = nn.functional.cross_entropy(model(images), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
