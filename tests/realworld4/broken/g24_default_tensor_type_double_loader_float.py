"""CIFAR-style training with torch.set_default_tensor_type(torch.DoubleTensor) at the top: the network is built in float64 but the image pipeline (uint8 -> float, like ToTensor) still yields float32 batches
source: https://github.com/pytorch/vision/issues/3393
reported-error: silent surprise: "If I set default tensor to double, DataLoader still yields float tensors" (next(iter(train_loader))[0].dtype is torch.float32)
outcome: RuntimeError: Input type (float) and bias type (double) should be the same at line 49 (plus UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1)
root-cause: line 14
expect: DG002
"""
import numpy as np
import torch
import torch as th
import torch.utils.data as tdata
from torch import nn

th.set_default_tensor_type(torch.DoubleTensor)  # root-cause


class ToTensor:
    """Same contract as torchvision.transforms.ToTensor: HWC uint8 -> CHW float32 in [0, 1]."""

    def __call__(self, pic):
        return torch.from_numpy(pic.transpose(2, 0, 1).copy()).float().div(255)


class FakeCIFAR10(tdata.Dataset):
    def __init__(self, n=200, transform=None):
        rng = np.random.default_rng(0)
        self.data = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
        self.targets = rng.integers(0, 10, size=n).tolist()
        self.transform = transform

    def __getitem__(self, index):
        img, target = self.data[index], self.targets[index]
        if self.transform is not None:
            img = self.transform(img)
        return img, target

    def __len__(self):
        return len(self.data)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))  # fails-here


train_data = FakeCIFAR10(transform=ToTensor())
train_loader = tdata.DataLoader(train_data, batch_size=50, shuffle=True)
print(next(iter(train_loader))[0].dtype)

net = Net()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for epoch in range(2):
    for x, y in train_loader:
        loss = nn.functional.cross_entropy(net(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
