"""Manifold Mixup (nestordemeure/ManifoldMixupV2's ManifoldMixup callback) on a small ResNet trained with fastai's to_fp16 mixed precision (ManifoldMixupV2 #1): to_fp16 makes the network float16 (batchnorm kept float32, fp32 master weights, loss scaling), so the output of the hooked residual block is float16, while the mixing coefficients lam are sampled from a float32 Beta distribution; hook_mixup's torch.lerp(output[shuffle], output, weight=lam) gets a float16 start/end and a float32 weight
source: https://github.com/nestordemeure/ManifoldMixupV2/issues/1
reported-error: "With learner.to_fp16() I get error RuntimeError: expected dtype Float but got dtype Half" at manifold_mixup.py hook_mixup: output = torch.lerp(output[self.shuffle], output, weight=unsqueeze(self.lam, n=output_dims-1)); fixed in PR #3 by doing the lerp on output.float() and casting back with .half()
outcome: RuntimeError: expected dtype c10::Half for `weight` but got dtype float at line 107
root-cause: line 107
expect: DG004
"""
import os
import random
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions.beta import Beta
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
random.seed(0)
out_dir = tempfile.mkdtemp()


def unsqueeze(input, n=1):
    "Adds `n` dimensions of size 1 at the end of `input` (fastai's helper)"
    for _ in range(n):
        input = input.unsqueeze(-1)
    return input


# ---- a small ResNet (fastai's xresnet-style blocks)
class BasicBlock(nn.Module):
    def __init__(self, ni, nf, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(ni, nf, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(nf)
        self.conv2 = nn.Conv2d(nf, nf, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(nf)
        self.shortcut = nn.Sequential() if stride == 1 and ni == nf else nn.Sequential(
            nn.Conv2d(ni, nf, 1, stride, bias=False), nn.BatchNorm2d(nf))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.blocks = nn.Sequential(BasicBlock(16, 16), BasicBlock(16, 32, 2), BasicBlock(32, 64, 2))
        self.head = nn.Linear(64, n_classes)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(F.adaptive_avg_pool2d(x, 1).flatten(1))


# ---- fastai's to_fp16 (MixedPrecision callback), reduced
class MixedPrecision:
    def __init__(self, model, opt_func, lr, loss_scale=512.):
        self.model = model.half()
        for m in model.modules():  # convert_network keeps batchnorm in float32
            if isinstance(m, nn.modules.batchnorm._BatchNorm):
                m.float()
        self.model_params = [p for p in model.parameters() if p.requires_grad]
        self.master_params = [p.detach().clone().float().requires_grad_(True) for p in self.model_params]
        self.opt = opt_func(self.master_params, lr=lr)
        self.loss_scale = loss_scale

    def before_batch(self, xb):
        return xb.half()

    def backward_step(self, loss):
        self.opt.zero_grad()
        for p in self.model_params:
            p.grad = None
        (loss * self.loss_scale).backward()
        for mp, p in zip(self.master_params, self.model_params):
            mp.grad = p.grad.float() / self.loss_scale
        self.opt.step()
        with torch.no_grad():
            for mp, p in zip(self.master_params, self.model_params):
                p.copy_(mp)


# ---- ManifoldMixup callback (manifold_mixup.py as of the issue), reduced to the training-time path
class ManifoldMixup:
    def __init__(self, model, alpha=0.4, module_list=None):
        self.distrib = Beta(torch.tensor(alpha), torch.tensor(alpha))
        self.module_list = module_list
        self.hooks = [m.register_forward_hook(self.hook_mixup) for m in module_list]

    def before_batch(self, yb):
        "mixes inputs and stores mixed output and lambda"
        lam = self.distrib.sample((yb.size(0),)).squeeze().to(yb.device)
        lam = torch.stack([lam, 1 - lam], 1)
        self.lam = lam.max(1)[0]  # root-cause-alt
        self.shuffle = torch.randperm(yb.size(0)).to(yb.device)
        self.yb1 = yb[self.shuffle]
        self.module = random.choice(self.module_list)
        self.mixup_has_been_applied = False

    def hook_mixup(self, module, input, output):
        "Interupt one run to use its intermediate results with a second model call."
        if module is self.module and not self.mixup_has_been_applied:
            output_dims = len(output.size())
            output = torch.lerp(output[self.shuffle], output, weight=unsqueeze(self.lam, n=output_dims - 1))  # root-cause # fails-here
            self.mixup_has_been_applied = True
            return output

    def loss(self, lf, pred, yb):
        # lam*loss(yb) + (1-lam)*loss(yb1)
        return torch.lerp(lf(pred, self.yb1, reduction='none'), lf(pred, yb, reduction='none'), self.lam).mean()


# ---- synthetic CIFAR-like data: class-dependent colour blobs
n, n_classes = 512, 10
labels = torch.randint(0, n_classes, (n,))
images = torch.randn(n, 3, 32, 32) * 0.5
images[:, labels % 3] += (labels[:, None, None].float() / n_classes)
train_dl = DataLoader(TensorDataset(images, labels), batch_size=64, shuffle=True)

model = ResNet(n_classes)
mp = MixedPrecision(model, torch.optim.Adam, lr=1e-3)  # learn.to_fp16()
mixup = ManifoldMixup(model, alpha=0.4, module_list=list(model.blocks))

for epoch in range(2):
    model.train()
    total = 0.
    for xb, yb in train_dl:
        xb = mp.before_batch(xb)
        mixup.before_batch(yb)
        pred = model(xb).float()
        loss = mixup.loss(F.cross_entropy, pred, yb)
        mp.backward_step(loss)
        total += loss.item()
    print(f"epoch {epoch} train_loss {total / len(train_dl):.4f}")

torch.save(model.state_dict(), os.path.join(out_dir, "resnet_manifold_mixup_fp16.pth"))
