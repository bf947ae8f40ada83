"""Detection backbone with a float32-only deformable-convolution block trained under autocast, where DeformConv converts its input with x.float() before calling the extension (the fix suggested in the report), so the autocast activations never meet float32 weights inside the disabled region
source: https://github.com/NVIDIA/apex/issues/965
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DCN(nn.Module):
    def __init__(self, chi, cho, kernel_size=(3, 3), padding=1):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cho, chi, *kernel_size) * 0.05)
        self.bias = nn.Parameter(torch.zeros(cho))
        self.padding = padding

    @torch.autocast(device_type="cpu", enabled=False)
    def forward(self, x):
        return F.conv2d(x, self.weight, self.bias, padding=self.padding)


class DeformConv(nn.Module):
    def __init__(self, chi, cho):
        super().__init__()
        self.actf = nn.Sequential(nn.BatchNorm2d(cho, momentum=0.1), nn.ReLU(inplace=True))
        self.conv = DCN(chi, cho)

    def forward(self, x):
        x = self.conv(x.float())
        return self.actf(x)


class TinyDLA(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.ida = DeformConv(16, 16)
        self.hm = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        return self.hm(self.ida(self.base(x)))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyDLA()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        images, target = torch.rand(2, 3, 32, 32), torch.rand(2, 2, 16, 16)
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            loss = F.mse_loss(model(images).float(), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")
