"""YOLOv3 (archive branch) training: YOLOLayer.create_grids() runs in __init__ with device='cpu' and keeps ng/anchor_vec as plain attributes, so build_targets multiplies CUDA targets by CPU grid tensors
source: https://github.com/Zzh-tju/ultralytics-YOLOv3-Cluster-NMS/issues/6
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (utils.py build_targets: gwh = t[:, 4:6] * ng)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! at line 53; on CPU: ok
root-cause: line 23
expect: DG009
"""
import torch
import torch.nn as nn


class YOLOLayer(nn.Module):
    def __init__(self, anchors, nc, img_size=416, stride=32):
        super().__init__()
        self.anchors = torch.Tensor(anchors)
        self.na, self.nc, self.no = len(anchors), nc, nc + 5
        self.stride = stride
        ng = (img_size // stride, img_size // stride)
        self.create_grids(img_size, ng)

    def create_grids(self, img_size=416, ng=(13, 13), device="cpu"):
        self.nx, self.ny = ng
        self.ng = torch.Tensor(ng).to(device)  # root-cause
        yv, xv = torch.meshgrid([torch.arange(self.ny), torch.arange(self.nx)], indexing="ij")
        self.grid_xy = torch.stack((xv, yv), 2).to(device).float().view((1, 1, self.ny, self.nx, 2))
        self.anchor_vec = self.anchors.to(device) / self.stride
        self.anchor_wh = self.anchor_vec.view(1, self.na, 1, 1, 2)

    def forward(self, p):
        bs, _, ny, nx = p.shape
        if (self.nx, self.ny) != (nx, ny):
            self.create_grids(ng=(nx, ny), device=p.device)
        return p.view(bs, self.na, self.no, self.ny, self.nx).permute(0, 1, 3, 4, 2).contiguous()


class Darknet(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(16, 32, 3, 2, 1),
                                      nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(13), nn.Conv2d(32, 3 * (nc + 5), 1))
        self.yolo = YOLOLayer([(116, 90), (156, 198), (373, 326)], nc)
        self.yolo_layers = [self.yolo]

    def forward(self, x):
        return [self.yolo(self.backbone(x))]


def build_targets(model, targets):
    tcls, tbox, indices = [], [], []
    for layer in model.yolo_layers:
        ng, anchor_vec = layer.ng, layer.anchor_vec
        t = targets
        gxy = t[:, 2:4] * ng  # fails-here
        gwh = t[:, 4:6] * ng
        b, c = t[:, :2].long().t()
        gi, gj = gxy.long().t()
        indices.append((b, gj.clamp(0, layer.ny - 1), gi.clamp(0, layer.nx - 1)))
        tbox.append(torch.cat((gxy - gxy.floor(), gwh), 1))
        tcls.append(c)
    return tcls, tbox, indices


def compute_loss(p, targets, model):
    tcls, tbox, indices = build_targets(model, targets)
    lbox = 0.0
    for i, pi in enumerate(p):
        b, gj, gi = indices[i]
        ps = pi[b, 0, gj, gi]
        lbox = lbox + ((ps[:, :2].sigmoid() - tbox[i][:, :2]) ** 2).mean()
    return lbox


def train():
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = Darknet().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.937)
    for i in range(3):
        imgs = torch.rand(2, 3, 416, 416, device=device)
        # image, class, x, y, w, h (normalised)
        targets = torch.tensor([[0, 1, 0.5, 0.5, 0.2, 0.3], [1, 2, 0.3, 0.6, 0.1, 0.1]], device=device)
        pred = model(imgs)
        loss = compute_loss(pred, targets, model)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(i, loss.item())


if __name__ == "__main__":
    train()
