"""Rotated-box detector head whose anchors are exposed by a @property that rebuilds them with torch.tensor(...) on every access (default device: CPU); after model.to("cuda") the decoded boxes add CUDA regression offsets to CPU anchors
source: https://github.com/XinzeLee/RotateObjectDetection/issues/27
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (CUDA offsets + CPU anchors; not run on a GPU here) at line 28; on CPU: ok
root-cause: line 22
expect: DG009
"""
import torch
import torch.nn as nn


class RotatedHead(nn.Module):
    anchor_sizes = [(8.0, 4.0, 0.0), (8.0, 4.0, 1.5708), (16.0, 8.0, 0.0)]

    def __init__(self, in_ch=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, in_ch, 3, stride=2, padding=1), nn.ReLU())
        self.reg = nn.Conv2d(in_ch, 5 * len(self.anchor_sizes), 1)

    @property
    def anchors(self):
        return torch.tensor(self.anchor_sizes)  # root-cause

    def forward(self, images):
        f = self.stem(images)
        b, _, h, w = f.shape
        off = self.reg(f).view(b, len(self.anchor_sizes), 5, h, w).permute(0, 3, 4, 1, 2)
        wh_theta = self.anchors * torch.exp(off[..., 2:5].clamp(max=4))  # fails-here
        return torch.cat([off[..., :2], wh_theta], -1)


def rotated_l1(pred, target):
    return (pred - target).abs().mean()


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = RotatedHead().to(device)
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
images = torch.rand(2, 3, 32, 32, device=device)
target = torch.rand(2, 16, 16, 3, 5, device=device)
for it in range(3):
    loss = rotated_l1(model(images), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())
