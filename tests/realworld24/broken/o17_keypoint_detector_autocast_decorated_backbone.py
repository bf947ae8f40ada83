"""Keypoint detector whose backbone method is decorated with an autocast decorator (as the DCNv2 user did before def forward()), while the regression head is called by the outer forward outside any autocast region; the reduced-precision features leak into the float32 head Linear
source: https://github.com/lbin/DCNv2/issues/2
reported-error: RuntimeError: expected scalar type Float but found Half (pytorch 1.6, "when I use the @torch.cuda.amp.autocast before def forward(), this error occurs")
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 26
root-cause: line 22
expect: DG017
"""
import torch
import torch.nn as nn


class KeypointNet(nn.Module):
    def __init__(self, num_kpts=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(32, num_kpts * 2)

    @torch.autocast(device_type="cpu", dtype=torch.bfloat16)
    def extract(self, x):
        feats = self.pool(self.stem(x)).flatten(1)
        return feats  # root-cause

    def forward(self, x):
        feats = self.extract(x)
        return self.head(feats)  # fails-here


def train(model, epochs=2):
    opt = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    for epoch in range(epochs):
        images, kpts = torch.rand(4, 3, 64, 64), torch.rand(4, 10)
        loss = nn.functional.smooth_l1_loss(model(images), kpts)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train(KeypointNet())
