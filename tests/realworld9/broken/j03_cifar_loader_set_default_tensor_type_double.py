"""Double-precision CIFAR-style experiment whose setup helper still calls the deprecated torch.set_default_tensor_type(torch.DoubleTensor) next to set_default_dtype; training runs, torch warns on every start
source: https://github.com/pytorch/pytorch/issues/10393
reported-error: DataLoader doesn't respond to set_default_tensor_type (the images from ToTensor stay float32 while the default tensor type is double)
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 16
expect: DG002
"""
import numpy as np
import torch as th
import torch.utils.data as tdata
from torch import nn


def configure_precision(cfg):
    th.set_default_dtype(cfg["dtype"])
    th.set_default_tensor_type(cfg["tensor_type"])  # root-cause


class FakeCIFAR(tdata.Dataset):
    def __init__(self, n=64):
        rng = np.random.default_rng(0)
        self.images = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 10, size=n)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        img = th.as_tensor(self.images[i]).permute(2, 0, 1).to(th.get_default_dtype()) / 255.0
        return img, int(self.labels[i])


def main():
    configure_precision({"dtype": th.float64, "tensor_type": th.DoubleTensor})
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    loader = tdata.DataLoader(FakeCIFAR(), batch_size=16, shuffle=True)
    opt = th.optim.SGD(model.parameters(), lr=0.1)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("batch dtype", x.dtype, "loss", loss.item())


if __name__ == "__main__":
    main()
