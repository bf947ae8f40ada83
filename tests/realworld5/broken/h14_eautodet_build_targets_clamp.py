"""YOLOv5-style build_targets: integer grid indices are clamped in place with an upper bound taken from the float gain tensor
source: https://github.com/vicFigure/EAutoDet/issues/5
reported-error: RuntimeError: result type Float can't be cast to the desired output type long int (gj.clamp_(0, gain[3] - 1))
outcome: RuntimeError: result type Float can't be cast to the desired output type long int at line 43
root-cause: line 43
expect: DG004
"""
import torch
import torch.nn as nn


class Detect(nn.Module):
    def __init__(self, nc=2, na=3, ch=16):
        super().__init__()
        self.na, self.no = na, nc + 5
        self.m = nn.Conv2d(ch, na * self.no, 1)
        self.anchors = torch.tensor([[10, 13], [16, 30], [33, 23]], dtype=torch.float32) / 8

    def forward(self, x):
        bs, _, ny, nx = x.shape
        return self.m(x).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2)


class ComputeLoss:
    def __init__(self, det):
        self.det = det
        self.na = det.na

    def build_targets(self, p, targets):
        nt = targets.shape[0]
        tcls, tbox, indices, anch = [], [], [], []
        gain = torch.ones(7, device=targets.device)
        ai = torch.arange(self.na, device=targets.device).float().view(self.na, 1).repeat(1, nt)
        targets = torch.cat((targets.repeat(self.na, 1, 1), ai[:, :, None]), 2)
        gain[2:6] = torch.tensor(p.shape)[[3, 2, 3, 2]]
        t = (targets * gain).view(-1, 7)
        b, c = t[:, :2].long().T
        gxy = t[:, 2:4]
        gwh = t[:, 4:6]
        gij = gxy.long()
        gi, gj = gij.T
        a = t[:, 6].long()
        indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))  # root-cause # fails-here
        tbox.append(torch.cat((gxy - gij, gwh), 1))
        anch.append(self.det.anchors[a])
        tcls.append(c)
        return tcls, tbox, indices, anch

    def __call__(self, p, targets):
        tcls, tbox, indices, anchors = self.build_targets(p, targets)
        b, a, gj, gi = indices[0]
        ps = p[b, a, gj, gi]
        lbox = ((ps[:, :2].sigmoid() * 2 - 0.5 - tbox[0][:, :2]) ** 2).mean()
        return lbox


if __name__ == "__main__":
    backbone = nn.Conv2d(3, 16, 3, stride=8, padding=1)
    det = Detect()
    compute_loss = ComputeLoss(det)
    imgs = torch.rand(2, 3, 64, 64)
    targets = torch.tensor([[0, 1, 0.5, 0.5, 0.2, 0.3], [1, 0, 0.25, 0.75, 0.1, 0.1]])
    pred = det(backbone(imgs))
    loss = compute_loss(pred, targets)
    loss.backward()
    print("loss", loss.item())
