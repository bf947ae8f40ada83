"""Detection backbone with a deformable-convolution block compiled as a float32-only extension (CenterNet/DLA DeformConv layout), trained under autocast: the autocast stem hands reduced-precision activations to DeformConv, whose extension forward runs with autocast disabled and float32 weights
source: https://github.com/NVIDIA/apex/issues/965
reported-error: RuntimeError: expected scalar type Float but found Half (in x = self.conv(x) of DeformConv when the model holds a DCN module compiled by c++ and amp O1 is used; advice: convert the input to float32 with x.float())
outcome: RuntimeError: Input type (c10::BFloat16) and bias type (float) should be the same at line 25
root-cause: line 36
expect: DG017
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BN_MOMENTUM = 0.1


# ---- DCNv2/dcn_v2.py (stands in for the compiled float32-only extension)
class DCN(nn.Module):
    def __init__(self, chi, cho, kernel_size=(3, 3), padding=1):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cho, chi, *kernel_size) * 0.05)
        self.bias = nn.Parameter(torch.zeros(cho))
        self.padding = padding

    @torch.autocast(device_type="cpu", enabled=False)
    def forward(self, x):
        return F.conv2d(x, self.weight, self.bias, padding=self.padding)  # fails-here


# ---- lib/models/networks/pose_dla_dcn.py
class DeformConv(nn.Module):
    def __init__(self, chi, cho):
        super().__init__()
        self.actf = nn.Sequential(nn.BatchNorm2d(cho, momentum=BN_MOMENTUM), nn.ReLU(inplace=True))
        self.conv = DCN(chi, cho)

    def forward(self, x):
        x = self.conv(x)  # root-cause
        return self.actf(x)


class TinyDLA(nn.Module):
    def __init__(self):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
        self.ida = DeformConv(16, 16)
        self.hm = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        return self.hm(self.ida(self.base(x)))


def train(model, steps=2):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        images, target = torch.rand(2, 3, 32, 32), torch.rand(2, 2, 16, 16)
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            loss = F.mse_loss(model(images).float(), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(TinyDLA())
