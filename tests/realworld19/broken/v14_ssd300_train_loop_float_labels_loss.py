"""SSD training loop modelled on NVIDIA's SSD example: after the forward pass the loop casts the encoded targets with `gloc, glabel = gloc.float(), glabel.float()` (as the reporter's local copy did) and the Loss module feeds glabel to cross_entropy as class indices
source: https://github.com/NVIDIA/DeepLearningExamples/issues/527
reported-error: RuntimeError: expected dtype Double but got dtype Float (train.py line 51: ploc, plabel = ploc.float(), plabel.float())
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 38
root-cause: line 61
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- src/model.py
class SSDLite(nn.Module):
    def __init__(self, num_classes=4, n_anchors=64):
        super().__init__()
        self.n_anchors, self.num_classes = n_anchors, num_classes
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(32, 32, 3, 2, 1), nn.ReLU())
        self.loc = nn.Conv2d(32, 4, 3, padding=1)
        self.conf = nn.Conv2d(32, num_classes, 3, padding=1)

    def forward(self, x):
        f = self.backbone(x)
        ploc = self.loc(f).flatten(2)
        plabel = self.conf(f).flatten(2)
        return ploc, plabel


# ---- src/model.py (Loss)
class Loss(nn.Module):
    def forward(self, ploc, plabel, gloc, glabel):
        mask = glabel > 0
        pos_num = mask.sum(dim=1).clamp(min=1)
        sl1 = F.smooth_l1_loss(ploc, gloc, reduction="none").sum(dim=1)
        sl1 = (mask.float() * sl1).sum(dim=1)
        con = F.cross_entropy(plabel, glabel, reduction="none")  # fails-here
        neg = con.clone()
        neg[mask] = 0
        _, idx = neg.sort(dim=1, descending=True)
        _, rank = idx.sort(dim=1)
        neg_mask = rank < (3 * pos_num).unsqueeze(-1)
        closs = (con * (mask.float() + neg_mask.float())).sum(dim=1)
        return ((sl1 + closs) / pos_num).mean()


# ---- src/utils.py
def encode_targets(rng, batch, n_anchors=64, num_classes=4):
    glabel = np.where(rng.random((batch, n_anchors)) < 0.1, rng.integers(1, num_classes, (batch, n_anchors)), 0)
    gloc = rng.normal(0, 1, (batch, 4, n_anchors)).astype(np.float32)
    return torch.from_numpy(gloc), torch.from_numpy(glabel)


# ---- src/train.py
def train_loop(model, loss_func, optim, rng, iterations=3):
    for it in range(iterations):
        img = torch.rand(4, 3, 64, 64)
        gloc, glabel = encode_targets(rng, img.shape[0])
        ploc, plabel = model(img)
        gloc, glabel = gloc.float(), glabel.float()  # root-cause
        loss = loss_func(ploc, plabel, gloc, glabel)
        optim.zero_grad()
        loss.backward()
        optim.step()
        print(f"iteration {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    model = SSDLite()
    train_loop(model, Loss(), torch.optim.SGD(model.parameters(), lr=2.6e-3, momentum=0.9), rng)
