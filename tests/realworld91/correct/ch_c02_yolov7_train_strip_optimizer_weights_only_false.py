"""The YOLOv7 training run of ch02 as PR #2118 fixes it: strip_optimizer and attempt_load read the run's own checkpoints with torch.load(..., weights_only=False), so last.pt/best.pt (a NumPy best_fitness, the whole half-precision model and EMA) are stripped and the best model is loaded, fused and run by detect; the checkpoint dict is kept as it is
source: https://github.com/WongKinYiu/yolov7/pull/2118
reported-error: (none; the fixed situation of ch02)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile
from copy import deepcopy
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


# ---- models/common.py, models/yolo.py (a small stand-in with the same Detect head) -----------------------------
class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))

    def fuseforward(self, x):
        return self.act(self.conv(x))


class Detect(nn.Module):
    stride = None

    def __init__(self, nc=80, anchors=(), ch=()):
        super().__init__()
        self.nc = nc
        self.no = nc + 5
        self.nl = len(anchors)
        self.na = len(anchors[0]) // 2
        self.grid = [torch.zeros(1)] * self.nl
        a = torch.tensor(anchors).float().view(self.nl, -1, 2)
        self.register_buffer("anchors", a)
        self.register_buffer("anchor_grid", a.clone().view(self.nl, 1, -1, 1, 1, 2))
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)

    def forward(self, x):
        z = []
        for i in range(self.nl):
            x[i] = self.m[i](x[i])
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
            if not self.training:
                if self.grid[i].shape[2:4] != x[i].shape[2:4]:
                    self.grid[i] = self._make_grid(nx, ny).to(x[i].device)
                y = x[i].sigmoid()
                y[..., 0:2] = (y[..., 0:2] * 2. - 0.5 + self.grid[i]) * self.stride[i]
                y[..., 2:4] = (y[..., 2:4] * 2) ** 2 * self.anchor_grid[i]
                z.append(y.view(bs, -1, self.no))
        return x if self.training else (torch.cat(z, 1), x)

    @staticmethod
    def _make_grid(nx=20, ny=20):
        yv, xv = torch.meshgrid([torch.arange(ny), torch.arange(nx)], indexing="ij")
        return torch.stack((xv, yv), 2).view((1, 1, ny, nx, 2)).float()


class Model(nn.Module):
    def __init__(self, nc=3, anchors=((10, 13, 16, 30, 33, 23), (30, 61, 62, 45, 59, 119))):
        super().__init__()
        self.backbone = nn.ModuleList([Conv(3, 16, 3, 2), Conv(16, 32, 3, 2), Conv(32, 32, 3, 2), Conv(32, 64, 3, 2)])
        self.detect = Detect(nc, anchors, ch=(32, 64))
        self.detect.stride = torch.tensor([8., 16.])
        self.detect.anchors /= self.detect.stride.view(-1, 1, 1)
        self.stride = self.detect.stride
        self.names = ["car", "person", "bike"]
        self.nc = nc

    def forward(self, x):
        x = self.backbone[1](self.backbone[0](x))
        p3 = self.backbone[2](x)
        p4 = self.backbone[3](p3)
        return self.detect([p3, p4])

    def fuse(self):
        for m in self.modules():
            if isinstance(m, Conv) and hasattr(m, "bn"):
                m.conv = fuse_conv_and_bn(m.conv, m.bn)
                delattr(m, "bn")
                m.forward = m.fuseforward
        return self


def fuse_conv_and_bn(conv, bn):
    fusedconv = nn.Conv2d(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding,
                          bias=True).requires_grad_(False).to(conv.weight.device)
    w_conv = conv.weight.clone().view(conv.out_channels, -1)
    w_bn = torch.diag(bn.weight.div(torch.sqrt(bn.eps + bn.running_var)))
    fusedconv.weight.copy_(torch.mm(w_bn, w_conv).view(fusedconv.weight.shape))
    b_conv = torch.zeros(conv.weight.size(0), device=conv.weight.device)
    b_bn = bn.bias - bn.weight.mul(bn.running_mean).div(torch.sqrt(bn.running_var + bn.eps))
    fusedconv.bias.copy_(torch.mm(w_bn, b_conv.reshape(-1, 1)).reshape(-1) + b_bn)
    return fusedconv


class Ensemble(nn.ModuleList):
    pass


# ---- utils/torch_utils.py ModelEMA, utils/metrics.py fitness, utils/general.py strip_optimizer ------------------
class ModelEMA:
    def __init__(self, model, decay=0.9999, updates=0):
        self.ema = deepcopy(model).eval()
        self.updates = updates
        self.decay = lambda x: decay * (1 - math.exp(-x / 2000))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)
            msd = model.state_dict()
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v *= d
                    v += (1. - d) * msd[k].detach()


def fitness(x):
    w = [0.0, 0.0, 0.1, 0.9]  # weights for [P, R, mAP@0.5, mAP@0.5:0.95]
    return (x[:, :4] * w).sum(1)


def strip_optimizer(f="best.pt", s=""):
    x = torch.load(f, map_location=torch.device("cpu"), weights_only=False)
    if x.get("ema"):
        x["model"] = x["ema"]
    for k in "optimizer", "training_results", "wandb_id", "ema", "updates":
        x[k] = None
    x["epoch"] = -1
    x["model"].half()
    for p in x["model"].parameters():
        p.requires_grad = False
    torch.save(x, s or f)
    mb = os.path.getsize(s or f) / 1E6
    print(f"Optimizer stripped from {f},{(' saved as %s,' % s) if s else ''} {mb:.1f}MB")


def attempt_load(weights, map_location=None):
    model = Ensemble()
    for w in weights if isinstance(weights, list) else [weights]:
        ckpt = torch.load(w, map_location=map_location, weights_only=False)
        temp_model = ckpt["ema" if ckpt.get("ema") else "model"]
        temp_model.float().fuse().eval()
        model.append(temp_model)
    return model[-1]


# ---- utils/loss.py ComputeLoss (simplified: the target's own grid cell and anchor 0 only) ----------------------
class ComputeLoss:
    def __init__(self, model):
        self.det = model.detect
        self.BCEcls = nn.BCEWithLogitsLoss()
        self.BCEobj = nn.BCEWithLogitsLoss()

    def __call__(self, p, targets):
        lbox, lobj, lcls = torch.zeros(1), torch.zeros(1), torch.zeros(1)
        for i, pi in enumerate(p):
            tobj = torch.zeros_like(pi[..., 0])
            ny, nx = pi.shape[2:4]
            b = targets[:, 0].long()
            c = targets[:, 1].long()
            gxy = targets[:, 2:4] * torch.tensor([nx, ny])
            gwh = targets[:, 4:6] * torch.tensor([nx, ny])
            gi, gj = gxy[:, 0].long().clamp_(0, nx - 1), gxy[:, 1].long().clamp_(0, ny - 1)
            ps = pi[b, 0, gj, gi]
            pxy = ps[:, :2].sigmoid() * 2. - 0.5
            pwh = (ps[:, 2:4].sigmoid() * 2) ** 2 * self.det.anchors[i][0]
            lbox += (torch.cat((pxy, pwh), 1) - torch.cat((gxy - torch.stack((gi, gj), 1), gwh), 1)).abs().mean()
            tobj[b, 0, gj, gi] = 1.0
            t = torch.zeros_like(ps[:, 5:])
            t[range(len(c)), c] = 1.0
            lcls += self.BCEcls(ps[:, 5:], t)
            lobj += self.BCEobj(pi[..., 4], tobj)
        bs = p[0].shape[0]
        return (0.05 * lbox + 1.0 * lobj + 0.5 * lcls) * bs, torch.cat((lbox, lobj, lcls)).detach()


# ---- a tiny labelled set: images + normalised xywh targets [img, cls, x, y, w, h] -------------------------------
def make_batch(bs=4, img=64, nc=3):
    imgs = torch.rand(bs, 3, img, img)
    rows = []
    for i in range(bs):
        for _ in range(int(rng.integers(1, 4))):
            rows.append([i, int(rng.integers(0, nc)), *rng.uniform(0.2, 0.8, 2), *rng.uniform(0.1, 0.3, 2)])
    return imgs, torch.tensor(rows, dtype=torch.float32)


def test(model):
    """test.py stand-in: returns (mp, mr, map50, map, box, obj, cls) as Python floats."""
    model.eval()
    with torch.no_grad():
        out, _ = model(torch.rand(2, 3, 64, 64))
    conf = out[..., 4].sigmoid().mean().item()
    return (conf, 1 - conf, 0.3 * conf, 0.15 * conf, 0.05, 0.02, 0.01)


def train(save_dir, epochs=3):
    wdir = save_dir / "weights"
    wdir.mkdir(parents=True, exist_ok=True)
    last, best = wdir / "last.pt", wdir / "best.pt"
    results_file = save_dir / "results.txt"
    results_file.write_text("")
    model = Model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937, nesterov=True)
    ema = ModelEMA(model)
    compute_loss = ComputeLoss(model)
    best_fitness = 0.0
    for epoch in range(epochs):
        model.train()
        for _ in range(4):
            imgs, targets = make_batch()
            pred = model(imgs)
            loss, loss_items = compute_loss(pred, targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(model)
        results = test(ema.ema)
        with open(results_file, "a") as f:
            f.write("%10.4g" * 7 % results + "\n")
        fi = fitness(np.array(results).reshape(1, -1))  # weighted combination of [P, R, mAP@.5, mAP@.5-.95]
        if fi > best_fitness:
            best_fitness = fi
        ckpt = {"epoch": epoch,
                "best_fitness": best_fitness,
                "training_results": results_file.read_text(),
                "model": deepcopy(model).half(),
                "ema": deepcopy(ema.ema).half(),
                "updates": ema.updates,
                "optimizer": optimizer.state_dict(),
                "wandb_id": None}
        torch.save(ckpt, last)
        if best_fitness == fi:
            torch.save(ckpt, best)
        del ckpt
        print(f"epoch {epoch}: loss {loss.item():.4f} fitness {fi[0]:.4f}")
    for f in last, best:
        if f.exists():
            strip_optimizer(f)
    return best


def detect(weights):
    model = attempt_load(weights, map_location="cpu")
    with torch.no_grad():
        pred = model(torch.rand(1, 3, 64, 64))[0]
    print(f"detect: {pred.shape[1]} candidate boxes, classes {model.names}")


with tempfile.TemporaryDirectory() as tmp:
    best = train(Path(tmp) / "runs" / "train" / "exp")
    detect(best)
