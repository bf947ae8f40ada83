"""MPRNet-style multi-stage restoration with the per-stage losses summed by torch.stack(...).sum() (the fix posted in the thread), so nothing goes through NumPy
source: https://github.com/swz30/MPRNet/issues/128
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x, y):
        diff = x - y
        return torch.mean(torch.sqrt((diff * diff) + (self.eps * self.eps)))


class EdgeLoss(nn.Module):
    def __init__(self):
        super().__init__()
        k = torch.tensor([[.05, .25, .4, .25, .05]])
        self.register_buffer("kernel", torch.matmul(k.t(), k).unsqueeze(0).repeat(3, 1, 1, 1))
        self.loss = CharbonnierLoss()

    def laplacian(self, x):
        filtered = nn.functional.conv2d(nn.functional.pad(x, (2, 2, 2, 2), mode="replicate"), self.kernel, groups=3)
        return x - filtered

    def forward(self, x, y):
        return self.loss(self.laplacian(x), self.laplacian(y))


class MPRNetLite(nn.Module):
    def __init__(self, n_feat=16):
        super().__init__()
        self.stages = nn.ModuleList([nn.Sequential(nn.Conv2d(3, n_feat, 3, padding=1), nn.PReLU(),
                                                   nn.Conv2d(n_feat, 3, 3, padding=1)) for _ in range(3)])

    def forward(self, x):
        outs = []
        for stage in self.stages:
            x = x + stage(x)
            outs.append(x)
        return outs[::-1]


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model_restoration = MPRNetLite().to(device)
    criterion_char = CharbonnierLoss()
    criterion_edge = EdgeLoss().to(device)
    optimizer = torch.optim.Adam(model_restoration.parameters(), lr=2e-4, betas=(0.9, 0.999), eps=1e-8)
    for epoch in range(2):
        for i in range(3):
            target = torch.rand(4, 3, 32, 32, device=device)
            input_ = (target + 0.1 * torch.randn_like(target)).clamp(0, 1)
            optimizer.zero_grad()
            restored = model_restoration(input_)
            # Compute loss at each stage
            loss_char = torch.sum(torch.stack([criterion_char(restored[j], target) for j in range(len(restored))]))
            loss_edge = torch.sum(torch.stack([criterion_edge(restored[j], target) for j in range(len(restored))]))
            loss = (loss_char) + (0.05 * loss_edge)
            loss.backward()
            optimizer.step()
        print("epoch", epoch, float(loss))
