"""Person re-id siamese head trained with binary cross-entropy on image pairs: make_pairs() builds the same-identity target with (pid_a == pid_b).long(), and nn.BCELoss on the sigmoid similarity rejects the Long target
source: https://github.com/KaiyangZhou/deep-person-reid/issues/239
reported-error: how to train a siamese (two-branch) model with binary cross-entropy on labelled pairs (RuntimeError: Found dtype Long but expected Float)
outcome: RuntimeError: Found dtype Long but expected Float at line 41
root-cause: line 34
expect: DG007
"""
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, dim))

    def forward(self, x):
        return nn.functional.normalize(self.net(x), dim=1)


class SiameseHead(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.scale = nn.Parameter(torch.tensor(5.0))

    def forward(self, a, b):
        return torch.sigmoid(self.scale * (self.backbone(a) * self.backbone(b)).sum(1))


def make_pairs(images, pids, n_pairs=32):
    ia = torch.randint(0, len(pids), (n_pairs,))
    ib = torch.randint(0, len(pids), (n_pairs,))
    same = (pids[ia] == pids[ib]).long()  # root-cause
    return images[ia], images[ib], same


def train_step(model, batch, opt, criterion):
    a, b, target = batch
    prob = model(a, b)
    loss = criterion(prob, target)  # fails-here
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


torch.manual_seed(0)
images = torch.rand(64, 3, 32, 16)
pids = torch.randint(0, 8, (64,))
model = SiameseHead(Backbone())
opt = torch.optim.Adam(model.parameters(), lr=3e-4)
criterion = nn.BCELoss()
for it in range(3):
    print("iter", it, "loss", train_step(model, make_pairs(images, pids), opt, criterion))
