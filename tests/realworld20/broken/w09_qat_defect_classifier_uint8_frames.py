"""Quantization-aware training of a small defect-inspection CNN for an edge device: the Dataset returns the camera frames as uint8 tensors (as an OpenCV loader gives them) and the model expects to normalise inside forward, but after prepare_qat the QuantStub's FakeQuantize only accepts float input
source: https://github.com/pytorch/pytorch/issues/50417
reported-error: Expected self.scalar_type() == ScalarType::Float to be true, but got false. when doing quantization aware training (the dataloader returned uint8 images loaded with OpenCV; an explicit .float() before the model graph is needed)
outcome: RuntimeError: expected scalar type Float but found Byte at line 44
root-cause: line 30
expect: DG005
"""
import warnings

import numpy as np
import torch
import torch.ao.quantization as tq
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

warnings.filterwarnings("ignore")


class InspectionFrames(Dataset):
    def __init__(self, n=64, size=32, seed=0):
        rng = np.random.default_rng(seed)
        self.frames = rng.integers(0, 256, (n, size, size, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 2, n)
        self.frames[self.labels == 1, 10:20, 10:20] = 255

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, i):
        img = torch.from_numpy(self.frames[i]).permute(2, 0, 1)  # root-cause
        return img, int(self.labels[i])


class DefectNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 16, 3, stride=2), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 2)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)  # fails-here
        x = self.pool(self.features(x)).flatten(1)
        return self.dequant(self.fc(x))


def prepare_for_qat(model, backend="fbgemm"):
    model.train()
    model.qconfig = tq.get_default_qat_qconfig(backend)
    return tq.prepare_qat(model)


def train_qat(epochs=1):
    loader = DataLoader(InspectionFrames(), batch_size=16, shuffle=True)
    model = prepare_for_qat(DefectNet())
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        for img, label in loader:
            loss = nn.functional.cross_entropy(model(img), label)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")
    return tq.convert(model.eval())


if __name__ == "__main__":
    train_qat()
