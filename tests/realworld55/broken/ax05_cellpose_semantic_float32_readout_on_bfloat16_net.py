"""Semantic (cell-class) fine-tuning of a Cellpose-SAM style network following cellpose's paper/cpsam/semantic.py (MouseLand/cellpose #1327): the user's script takes the network of a CellposeModel, which defaults to use_bfloat16=True, and swaps in semantic.py's larger readout (net.out = nn.Conv2d(...) with nclasses extra maps, net.W2 = nn.Parameter(torch.eye(...))), both created in float32 after the network was cast; train_seg casts each batch to net.dtype (bfloat16), the encoder runs in bfloat16 and the float32 readout convolution receives bfloat16 features
source: https://github.com/MouseLand/cellpose/issues/1327
reported-error: "When running semantic.py under the paper/cpsam folder, I encountered the following error": train.py line 462 y = net(X)[0] -> vit_sam.py line 75 x1 = self.out(x) -> "RuntimeError: Input type (c10::BFloat16) and bias type (float) should be the same"
outcome: RuntimeError: Input type (c10::BFloat16) and bias type (float) should be the same at line 69
root-cause: line 199
expect: DG004
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
out_dir = tempfile.mkdtemp()


# ---- cellpose/vit_sam.py (SAM image encoder reduced to a few global-attention blocks)
class Block(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):                      # x: B, H, W, C like SAM's blocks
        B, H, W, C = x.shape
        t = x.reshape(B, H * W, C)
        h = self.norm1(t)
        t = t + self.attn(h, h, h, need_weights=False)[0]
        t = t + self.mlp(self.norm2(t))
        return t.reshape(B, H, W, C)


class Transformer(nn.Module):
    def __init__(self, ps=8, nout=3, bsize=64, dim=64, depth=3, rdrop=0.4, dtype=torch.float32):
        super().__init__()
        self.ps = ps
        self.patch_embed = nn.Conv2d(3, dim, stride=ps, kernel_size=ps)
        self.pos_embed = nn.Parameter(0.02 * torch.randn(1, bsize // ps, bsize // ps, dim))
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.neck = nn.Sequential(nn.Conv2d(dim, 32, 1, bias=False), nn.GroupNorm(1, 32),
                                  nn.Conv2d(32, 32, 3, padding=1, bias=False), nn.GroupNorm(1, 32))
        self.nout = nout
        self.out = nn.Conv2d(32, nout * ps ** 2, kernel_size=1)
        self.W2 = nn.Parameter(torch.eye(nout * ps ** 2).reshape(nout * ps ** 2, nout, ps, ps), requires_grad=False)
        self.rdrop = rdrop
        self.diam_labels = nn.Parameter(torch.tensor([30.]), requires_grad=False)
        self.diam_mean = nn.Parameter(torch.tensor([30.]), requires_grad=False)
        self.dtype = dtype
        if self.dtype != torch.float32:
            self = self.to(self.dtype)

    def forward(self, x):
        x = self.patch_embed(x).permute(0, 2, 3, 1) + self.pos_embed
        if self.training and self.rdrop > 0:
            nlay = len(self.blocks)
            rdrop = (torch.rand((len(x), nlay)) < torch.linspace(0, self.rdrop, nlay)).to(x.dtype)
            for i, blk in enumerate(self.blocks):
                mask = rdrop[:, i].reshape(-1, 1, 1, 1)
                x = x * mask + blk(x) * (1 - mask)
        else:
            for blk in self.blocks:
                x = blk(x)
        x = self.neck(x.permute(0, 3, 1, 2))
        x1 = self.out(x)  # fails-here
        x1 = F.conv_transpose2d(x1, self.W2, stride=self.ps, padding=0)
        return x1, torch.zeros((x.shape[0], 256))

    @property
    def device(self):
        return next(self.parameters()).device

    def save_model(self, filename):
        torch.save(self.state_dict(), filename)


# ---- cellpose/models.py CellposeModel, the part that builds the net
class CellposeModel:
    def __init__(self, gpu=False, use_bfloat16=True):
        dtype = torch.bfloat16 if use_bfloat16 else torch.float32
        self.net = Transformer(dtype=dtype)


# ---- synthetic H&E-like crops: nuclei of 4 classes with class-specific stain, labels -> (class, cellprob, flowY, flowX)
STAIN = np.array([[0.9, 0.3, 0.6], [0.4, 0.2, 0.9], [0.8, 0.7, 0.2], [0.3, 0.9, 0.4]], "float32")
def make_image(n_cells, size=64):
    yy, xx = np.mgrid[:size, :size]
    img, masks = np.zeros((3, size, size), "float32"), np.zeros((size, size), "int32")
    classes = np.zeros((size, size), "int64")
    for k in range(1, n_cells + 1):
        cy, cx, r = np.random.randint(8, size - 8), np.random.randint(8, size - 8), np.random.randint(4, 8)
        disk = (yy - cy) ** 2 + (xx - cx) ** 2 <= r ** 2
        masks[disk], classes[disk] = k, np.random.randint(1, 5)
        img[:, disk] = (1.0 + 0.2 * np.random.rand()) * STAIN[classes[disk][0] - 1][:, None]
    img += 0.1 * np.random.randn(3, size, size).astype("float32")
    return img, masks, classes


def labels_to_flows(masks):
    flows = np.zeros((3, *masks.shape), "float32")
    flows[0] = masks > 0
    for k in np.unique(masks)[1:]:
        ys, xs = np.nonzero(masks == k)
        dy, dx = ys.mean() - ys, xs.mean() - xs
        norm = np.sqrt(dy ** 2 + dx ** 2) + 1e-3
        flows[1, ys, xs], flows[2, ys, xs] = dy / norm, dx / norm
    return flows


def _loss_fn_class(lbl, y, class_weights=None):
    criterion3 = nn.CrossEntropyLoss(reduction="mean", weight=class_weights)
    return criterion3(y[:, :-3], lbl[:, 0].long())


def _loss_fn_seg(lbl, y):
    veci = 5. * lbl[:, -2:]
    loss = F.mse_loss(y[:, -3:-1], veci) / 2.
    return loss + F.binary_cross_entropy_with_logits(y[:, -1], (lbl[:, -3] > 0.5).to(y.dtype))


# ---- cellpose/train.py train_seg (as before PR #1390), reduced to the training loop
def train_seg(net, train_data, train_labels, batch_size=4, learning_rate=1e-5, n_epochs=10,
              weight_decay=0.1, save_path=None, model_name="cpsam_finetuned", class_weights=None):
    device = net.device
    original_net_dtype = None
    if device.type == 'mps' and net.dtype == torch.bfloat16:
        original_net_dtype = torch.bfloat16
        net.dtype = torch.float32
        net.to(torch.float32)
    flows = train_labels                       # precomputed (class, cellprob, flowY, flowX) maps
    net.diam_labels.data = torch.Tensor([20.]).to(device)
    LR = np.linspace(0, learning_rate, 10)
    LR = np.append(LR, learning_rate * np.ones(max(0, n_epochs - 10)))
    optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)
    nimg = len(train_data)
    train_losses = np.zeros(n_epochs)
    for iepoch in range(n_epochs):
        np.random.seed(iepoch)
        rperm = np.random.permutation(nimg)
        for param_group in optimizer.param_groups:
            param_group["lr"] = LR[iepoch]
        net.train()
        for k in range(0, nimg, batch_size):
            inds = rperm[k:k + batch_size]
            flip = np.random.rand() > 0.5
            imgi = np.stack([train_data[i][..., ::-1] if flip else train_data[i] for i in inds]).copy()
            lbl = np.stack([flows[i][..., ::-1] * (np.array([1, 1, 1, -1])[:, None, None] if flip else 1) for i in inds]).astype("float32")
            X = torch.from_numpy(imgi).to(device)
            lbl = torch.from_numpy(lbl).to(device)
            if X.dtype != net.dtype:
                X = X.to(net.dtype)
                lbl = lbl.to(net.dtype)
            y = net(X)[0]
            loss = _loss_fn_seg(lbl, y)
            if y.shape[1] > 3:
                loss = loss + _loss_fn_class(lbl, y, class_weights=class_weights)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            train_losses[iepoch] += loss.item() * len(inds)
        train_losses[iepoch] /= nimg
    filename = os.path.join(save_path, model_name)
    net.save_model(filename)
    if original_net_dtype is not None:
        net.dtype = original_net_dtype
        net.to(original_net_dtype)
    return filename, train_losses


# ---- paper/cpsam/semantic.py initialize_class_net, applied to the CellposeModel's network
def initialize_class_net(net, nclasses=5, device=torch.device("cpu")):
    ps, nout = 8, 3
    w0 = net.out.weight.data.detach().clone()
    b0 = net.out.bias.data.detach().clone()
    net.out = nn.Conv2d(32, (nout + nclasses) * ps**2, kernel_size=1).to(device)  # root-cause-alt
    i = 0
    net.out.weight.data[i * ps**2:(i + 1) * ps**2] = -0.5 * w0[(nout - 1) * ps**2:nout * ps**2]
    net.out.bias.data[i * ps**2:(i + 1) * ps**2] = b0[(nout - 1) * ps**2:nout * ps**2]
    for i in range(1, nclasses):
        net.out.weight.data[i * ps**2:(i + 1) * ps**2] = 0.5 * w0[(nout - 1) * ps**2:nout * ps**2]
        net.out.bias.data[i * ps**2:(i + 1) * ps**2] = b0[(nout - 1) * ps**2:nout * ps**2]
    net.out.weight.data[-(nout * ps**2):] = w0
    net.out.bias.data[-(nout * ps**2):] = b0
    net.W2 = nn.Parameter(torch.eye((nout + nclasses) * ps**2).reshape((nout + nclasses) * ps**2, nout + nclasses, ps, ps),
                          requires_grad=False)
    net.to(device)
    return net


data = [make_image(np.random.randint(3, 7)) for _ in range(16)]
images = [d[0] for d in data]
labels = [np.concatenate([d[2][None].astype("float32"), labels_to_flows(d[1])]) for d in data]
pclass = np.array([np.mean([(lab[0] == c).mean() for lab in labels]) for c in range(5)])

model = CellposeModel(gpu=False)  # root-cause
net = initialize_class_net(model.net, nclasses=5)
filename, losses = train_seg(net, images, labels, learning_rate=5e-5, weight_decay=0.1, n_epochs=10,
                             save_path=out_dir, model_name="he_pclass", class_weights=torch.from_numpy(1. / pclass).float())
print(f"train losses: first {losses[0]:.4f} last {losses[-1]:.4f}")
