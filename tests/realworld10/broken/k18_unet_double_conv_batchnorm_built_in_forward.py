"""Course-style U-Net whose DoubleConv block builds nn.BatchNorm2d(...) and nn.ReLU inside forward instead of __init__: model.to(device) cannot move modules that do not exist yet, so on a GPU the freshly created BatchNorm (CPU weight and running stats) meets the CUDA activations
source: https://github.com/syuu1987/geekTime-semantic-segmentation/issues/1
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (fixed by creating the BatchNorm2d layers in __init__)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the BatchNorm2d made in forward lives on the CPU; exact wording varies with the torch version) at line 21; on CPU: ok
root-cause: line 21
expect: DG009
"""
import torch
import torch.nn as nn


class DoubleConv(nn.Module):
    def __init__(self, in_channels, features):
        super().__init__()
        self.features = features
        self.conv1 = nn.Conv2d(in_channels, features, 3, padding=1, bias=False)
        self.conv2 = nn.Conv2d(features, features, 3, padding=1, bias=False)

    def forward(self, input):
        x = self.conv1(input)
        x = nn.BatchNorm2d(num_features=self.features)(x)  # root-cause # fails-here
        x = nn.ReLU(inplace=True)(x)
        x = self.conv2(x)
        x = nn.BatchNorm2d(num_features=self.features)(x)
        return nn.ReLU(inplace=True)(x)


class UNet(nn.Module):
    def __init__(self, in_channels=3, n_classes=2, features=8):
        super().__init__()
        self.down = DoubleConv(in_channels, features)
        self.pool = nn.MaxPool2d(2)
        self.bottom = DoubleConv(features, features * 2)
        self.up = nn.ConvTranspose2d(features * 2, features, 2, stride=2)
        self.dec = DoubleConv(features * 2, features)
        self.head = nn.Conv2d(features, n_classes, 1)

    def forward(self, x):
        d = self.down(x)
        b = self.bottom(self.pool(d))
        return self.head(self.dec(torch.cat([self.up(b), d], dim=1)))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = UNet().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
images = torch.rand(4, 3, 32, 32, device=device)
masks = torch.randint(0, 2, (4, 32, 32), device=device)
for step in range(2):
    loss = nn.functional.cross_entropy(model(images), masks)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
