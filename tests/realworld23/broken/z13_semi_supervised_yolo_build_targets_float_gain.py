"""Semi-supervised object detection (efficientteacher / YOLOv5-style ComputeLoss.build_targets): the normalisation gain is a float tensor of ones filled with the feature-map sizes, and the grid indices gj/gi (long) are clamped in place with gain[3] - 1, a float tensor bound that cannot be written back into a long tensor
source: https://github.com/AlibabaResearch/efficientteacher/issues/142
reported-error: RuntimeError: result type Float can't be cast to the desired output type long int (fixed by gain[3].long() - 1 and gain[2].long() - 1)
outcome: RuntimeError: result type Float can't be cast to the desired output type long int at line 51
root-cause: line 36
expect: DG005
"""
import torch
import torch.nn as nn

hyp = {"anchor_t": 4.0, "box": 0.05, "obj": 1.0, "cls": 0.5}


# ---- models/yolo.py (one detection level)
class Detect(nn.Module):
    def __init__(self, nc=3, na=3, ch=8):
        super().__init__()
        self.nc, self.na, self.no = nc, na, nc + 5
        self.m = nn.Conv2d(ch, na * self.no, 1)
        self.register_buffer("anchors", torch.tensor([[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]]))

    def forward(self, x):
        bs, _, ny, nx = x.shape
        return self.m(x).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()


# ---- utils/loss.py
class ComputeLoss:
    def __init__(self, det):
        self.det = det
        self.na = det.na

    def build_targets(self, p, targets):
        nt = targets.shape[0]
        tcls, tbox, indices = [], [], []
        gain = torch.ones(7, device=targets.device)  # root-cause
        ai = torch.arange(self.na, device=targets.device).float().view(self.na, 1).repeat(1, nt)
        targets = torch.cat((targets.repeat(self.na, 1, 1), ai[:, :, None]), 2)
        anchors = self.det.anchors
        gain[2:6] = torch.tensor(p.shape)[[3, 2, 3, 2]]
        t = targets * gain
        r = t[:, :, 4:6] / anchors[:, None]
        j = torch.max(r, 1 / r).max(2)[0] < hyp["anchor_t"]
        t = t[j]
        b, c = t[:, :2].long().T
        gxy = t[:, 2:4]
        gwh = t[:, 4:6]
        gij = gxy.long()
        gi, gj = gij.T
        a = t[:, 6].long()
        indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))  # fails-here
        tbox.append(torch.cat((gxy - gij, gwh), 1))
        tcls.append(c)
        return tcls, tbox, indices

    def __call__(self, p, targets):
        tcls, tbox, indices = self.build_targets(p, targets)
        b, a, gj, gi = indices[0]
        ps = p[b, a, gj, gi]
        lbox = ((ps[:, :2].sigmoid() * 2 - 0.5 - tbox[0][:, :2]) ** 2).mean()
        tobj = torch.zeros_like(p[..., 4])
        tobj[b, a, gj, gi] = 1.0
        lobj = nn.functional.binary_cross_entropy_with_logits(p[..., 4], tobj)
        lcls = nn.functional.cross_entropy(ps[:, 5:], tcls[0])
        return hyp["box"] * lbox + hyp["obj"] * lobj + hyp["cls"] * lcls


if __name__ == "__main__":
    torch.manual_seed(0)
    det = Detect()
    backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=4, padding=1), nn.SiLU())
    compute_loss = ComputeLoss(det)
    imgs = torch.rand(2, 3, 64, 64)
    targets = torch.tensor([[0, 1, 0.5, 0.5, 0.2, 0.3], [1, 2, 0.25, 0.7, 0.1, 0.1], [1, 0, 0.8, 0.2, 0.3, 0.2]])
    loss = compute_loss(det(backbone(imgs)), targets)
    loss.backward()
    print("loss", loss.item())
