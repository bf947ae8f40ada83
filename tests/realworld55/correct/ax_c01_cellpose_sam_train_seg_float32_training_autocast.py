"""Fine-tuning a Cellpose-SAM style segmentation network (MouseLand/cellpose PR #1390 as in ax01) with the PR's train_seg: the CellposeModel is still built with the default use_bfloat16=True, but train_seg converts a bfloat16 net to float32 through the net.dtype setter before building AdamW, runs the forward under torch.autocast(dtype=net.dtype), saves float32 weights and converts the net back to bfloat16 afterwards for bfloat16 inference, so every AdamW update reaches the float32 weights
source: https://github.com/MouseLand/cellpose/pull/1390
reported-error: (none filed; the fixed situation of ax01)
outcome: ok
root-cause: -
expect: none
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
        self._dtype = dtype
        if dtype != torch.float32:
            self.dtype = dtype

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
        x1 = F.conv_transpose2d(self.out(x), self.W2, stride=self.ps, padding=0)
        return x1, torch.zeros((x.shape[0], 256))

    @property
    def dtype(self):
        return self._dtype

    @dtype.setter
    def dtype(self, value):
        if self._dtype != value:
            self.to(value)
            self._dtype = value

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


# ---- synthetic fluorescence images of round cells, labels -> (cellprob, flowY, flowX)
def make_image(n_cells, size=64):
    yy, xx = np.mgrid[:size, :size]
    img, masks = np.zeros((3, size, size), "float32"), np.zeros((size, size), "int32")
    for k in range(1, n_cells + 1):
        cy, cx, r = np.random.randint(8, size - 8), np.random.randint(8, size - 8), np.random.randint(4, 8)
        disk = (yy - cy) ** 2 + (xx - cx) ** 2 <= r ** 2
        masks[disk], img[1][disk] = k, 1.0 + 0.2 * np.random.rand()
    img[1] += 0.1 * np.random.randn(size, size).astype("float32")
    return img, masks


def labels_to_flows(masks):
    flows = np.zeros((3, *masks.shape), "float32")
    flows[0] = masks > 0
    for k in np.unique(masks)[1:]:
        ys, xs = np.nonzero(masks == k)
        dy, dx = ys.mean() - ys, xs.mean() - xs
        norm = np.sqrt(dy ** 2 + dx ** 2) + 1e-3
        flows[1, ys, xs], flows[2, ys, xs] = dy / norm, dx / norm
    return flows


def _loss_fn_seg(lbl, y):
    veci = 5. * lbl[:, -2:]
    loss = F.mse_loss(y[:, -3:-1], veci) / 2.
    return loss + F.binary_cross_entropy_with_logits(y[:, -1], (lbl[:, -3] > 0.5).to(y.dtype))


# ---- cellpose/train.py train_seg (as before PR #1390), reduced to the training loop
def train_seg(net, train_data, train_labels, batch_size=4, learning_rate=1e-5, n_epochs=10,
              weight_decay=0.1, save_path=None, model_name="cpsam_finetuned"):
    device = net.device
    original_net_dtype = net.dtype
    if net.dtype == torch.bfloat16:
        # >>> converting bfloat16 network to float32 for training
        net.dtype = torch.float32
    flows = [labels_to_flows(m) for m in train_labels]
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
            lbl = np.stack([flows[i][..., ::-1] * (np.array([1, 1, -1])[:, None, None] if flip else 1) for i in inds]).astype("float32")
            X = torch.from_numpy(imgi).to(device)
            lbl = torch.from_numpy(lbl).to(device)
            with torch.autocast(device_type=device.type, dtype=net.dtype, enabled=net.dtype != torch.float32):
                y = net(X)[0]
            loss = _loss_fn_seg(lbl, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            train_losses[iepoch] += loss.item() * len(inds)
        train_losses[iepoch] /= nimg
    filename = os.path.join(save_path, model_name)
    net.save_model(filename)
    if original_net_dtype != torch.float32:
        net.dtype = original_net_dtype
    return filename, train_losses


images, masks = zip(*[make_image(np.random.randint(3, 7)) for _ in range(16)])
model = CellposeModel(gpu=False)  # the default, use_bfloat16=True
before = {n: p.detach().float().clone() for n, p in model.net.named_parameters() if p.requires_grad}
filename, losses = train_seg(model.net, list(images), list(masks), n_epochs=10, save_path=out_dir)
saved = torch.load(filename, weights_only=True)
changed = sum((saved[n].float() != before[n]).sum().item() for n in before)
total = sum(before[n].numel() for n in before)
print(f"train losses: first {losses[0]:.4f} last {losses[-1]:.4f}")
print(f"saved weights {saved['out.weight'].dtype}: {100 * changed / total:.1f}% of weight entries changed after "
      f"{10 * len(images) // 4} AdamW steps")

# inference with the bfloat16 net that train_seg hands back
model.net.eval()
with torch.no_grad():
    y = model.net(torch.from_numpy(np.stack(images[:2])).to(model.net.dtype))[0]
print(f"net back to {model.net.dtype} for inference: cellprob>0 on {(y[:, -1] > 0).float().mean().item():.2%} of pixels")
