"""The complex-valued CNN of bu06 (torchcvnn/torchcvnn #50) with the fix of PR #51: RandomPhase still draws its phase in float64 but casts the phase-shifted image to torch.complex64 before returning it, so the batches match the complex64 convolutions and the network trains; the float64 rand_like and the float32 ToTensor input are kept
source: https://github.com/torchcvnn/torchcvnn/issues/50
reported-error: (none filed; the fixed situation of bu06)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


# --- torchcvnn.transforms (re-typed, first release) ---
class ToTensor:
    def __call__(self, img):  # uint8 HxW -> float32 1xHxW in [0, 1]
        return torch.from_numpy(img).float().div(255.0)[None]


class RandomPhase:
    """Transform a real tensor into a complex tensor, by applying a random phase to the tensor."""

    def __call__(self, tensor) -> torch.Tensor:
        phase = torch.rand_like(tensor, dtype=torch.float64) * 2 * torch.pi
        return (tensor * torch.exp(1j * phase)).to(torch.complex64)


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:
            x = t(x)
        return x


# --- torchcvnn.nn (re-typed, small) ---
class BatchNorm2d(nn.Module):
    """Complex batch norm: centre, scale by the RMS modulus, learned complex affine."""

    def __init__(self, c, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(c, dtype=torch.complex64))
        self.bias = nn.Parameter(torch.zeros(c, dtype=torch.complex64))

    def forward(self, z):
        z = z - z.mean(dim=(0, 2, 3), keepdim=True)
        z = z / torch.sqrt((z.abs() ** 2).mean(dim=(0, 2, 3), keepdim=True) + self.eps)
        return z * self.weight[:, None, None] + self.bias[:, None, None]


class Cardioid(nn.Module):
    def forward(self, z):
        return 0.5 * (1 + torch.cos(z.angle())) * z


class AvgPool2d(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, z):
        return torch.complex(nn.functional.avg_pool2d(z.real, self.k), nn.functional.avg_pool2d(z.imag, self.k))


class Mod(nn.Module):
    def forward(self, z):
        return z.abs()


def conv_block(in_c, out_c, cdtype):
    return [
        nn.Conv2d(in_c, out_c, kernel_size=3, stride=1, padding=1, dtype=cdtype),
        BatchNorm2d(out_c),
        Cardioid(),
        nn.Conv2d(out_c, out_c, kernel_size=3, stride=1, padding=1, dtype=cdtype),
        BatchNorm2d(out_c),
        Cardioid(),
        AvgPool2d(2),
    ]


class SyntheticMNIST(Dataset):
    def __init__(self, n, seed, transform):
        g = np.random.default_rng(seed)
        self.labels = g.integers(0, 10, n)
        self.images = np.zeros((n, 28, 28), dtype=np.uint8)
        for i, c in enumerate(self.labels):
            r, col = 4 + 2 * c + g.integers(-1, 2), 4 + (3 * c) % 20 + g.integers(-1, 2)
            self.images[i, r:r + 3, 4:24] = 255
            self.images[i, 4:24, col:col + 3] = 200
        self.transform = transform

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return self.transform(self.images[idx]), int(self.labels[idx])


cdtype = torch.complex64
conv_model = nn.Sequential(*conv_block(1, 8, cdtype), *conv_block(8, 16, cdtype), nn.Flatten())
with torch.no_grad():
    n_flat = conv_model(torch.zeros((2, 1, 28, 28), dtype=cdtype)).shape[-1]
model = nn.Sequential(conv_model, nn.Linear(n_flat, 64, dtype=cdtype), Cardioid(), nn.Linear(64, 10, dtype=cdtype), Mod())

transform = Compose([ToTensor(), RandomPhase()])
train_loader = DataLoader(SyntheticMNIST(256, seed=0, transform=transform), batch_size=32, shuffle=True)
f_loss = nn.CrossEntropyLoss()
optim = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    total, correct = 0.0, 0
    for inputs, targets in train_loader:
        logits = model(inputs)
        loss = f_loss(logits, targets)
        optim.zero_grad()
        loss.backward()
        optim.step()
        total += loss.item() * len(targets)
        correct += (logits.argmax(1) == targets).sum().item()
    print(f"epoch {epoch}: CE {total / 256:.3f} acc {correct / 256:.2f}")
