"""The ForensicHub-style FFDN fine-tuning of bs06 (scu-zjz/ForensicHub #9) with load_model reading the released checkpoint inside torch.serialization.safe_globals([argparse.Namespace]): the weights-only loader accepts the Namespace that save_model keeps in 'args', so --resume restores the model, the AdamW state, the epoch and the scaler and the receipts are fine-tuned; the checkpoint still holds the args, init_vph still reads the backbone file with a plain torch.load, and the masks stay int64 class indices for cross_entropy
source: https://github.com/scu-zjz/ForensicHub/issues/9
reported-error: (none filed; the fixed situation of bs06)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
WORK = tempfile.mkdtemp()


class ConvNeXtBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
        self.norm = nn.GroupNorm(1, dim)
        self.pwconv = nn.Sequential(nn.Conv2d(dim, 4 * dim, 1), nn.GELU(), nn.Conv2d(4 * dim, dim, 1))

    def forward(self, x):
        return x + self.pwconv(self.norm(self.dwconv(x)))


class ConvNeXt(nn.Module):
    def __init__(self, dims=(12, 24)):
        super().__init__()
        self.downsample_layers = nn.ModuleList([nn.Conv2d(3, dims[0], 4, 4), nn.Conv2d(dims[0], dims[1], 2, 2)])
        self.stages = nn.ModuleList([ConvNeXtBlock(d) for d in dims])

    def forward(self, x):
        outs = []
        for down, stage in zip(self.downsample_layers, self.stages):
            x = stage(down(x))
            outs.append(x)
        return outs


class FFDN(nn.Module):
    def __init__(self, classes=2, weight_path=None):
        super().__init__()
        self.vph = ConvNeXt()
        self.fph = nn.Sequential(nn.Conv2d(1, 12, 4, 4), nn.ReLU())  # frequency branch on a DCT-like channel
        self.FU = nn.Sequential(nn.Conv2d(24, 12, 3, 1, 1), nn.BatchNorm2d(12), nn.ReLU(True), nn.Conv2d(12, 12, 1))
        self.FU[-1].weight.data.zero_()
        self.decoder = nn.Conv2d(12 + 24, 16, 3, 1, 1)
        self.head = nn.Sequential(nn.Conv2d(16, 16, 3, 1, 1), nn.ReLU(), nn.Conv2d(16, classes, 1))
        if weight_path is not None:
            self.init_vph(weight_path)

    def init_vph(self, weight_path):
        weights = torch.load(weight_path)["state_dict"]
        dels = [k for k in weights.keys() if not k.startswith("backbone.")]
        for k in dels:
            del weights[k]
        new_weights = {".".join(k.split(".")[1:]): v for k, v in weights.items()}
        self.vph.load_state_dict(new_weights)

    def forward(self, image, dct, mask):
        c1, c2 = self.vph(image)
        fused = c1 + self.FU(torch.cat([c1, self.fph(dct)], 1))
        up = F.interpolate(c2, size=c1.shape[-2:], mode="bilinear")
        pred = self.head(F.relu(self.decoder(torch.cat([fused, up], 1))))
        pred = F.interpolate(pred, size=mask.shape[-2:], mode="bilinear")
        return {"backward_loss": F.cross_entropy(pred, mask), "pred_mask": pred.softmax(1)[:, 1]}


class NativeScalerWithGradNormCount:
    state_dict_key = "amp_scaler"

    def __init__(self):
        self._scaler = torch.amp.GradScaler("cpu")

    def __call__(self, loss, optimizer, clip_grad=None, parameters=None):
        self._scaler.scale(loss).backward()
        self._scaler.unscale_(optimizer)
        norm = torch.nn.utils.clip_grad_norm_(parameters, clip_grad) if clip_grad is not None else None
        self._scaler.step(optimizer)
        self._scaler.update()
        return norm

    def state_dict(self):
        return self._scaler.state_dict()

    def load_state_dict(self, state_dict):
        self._scaler.load_state_dict(state_dict)


def save_model(args, epoch, model, model_without_ddp, optimizer, loss_scaler):
    output_dir = Path(args.output_dir)
    checkpoint_path = output_dir / ("checkpoint-%s.pth" % str(epoch))
    to_save = {
        "model": model_without_ddp.state_dict(),
        "optimizer": optimizer.state_dict(),
        "epoch": epoch,
        "scaler": loss_scaler.state_dict(),
        "args": args,
    }
    torch.save(to_save, checkpoint_path)
    return checkpoint_path


def load_model(args, model_without_ddp, optimizer, loss_scaler):
    if args.resume:
        with torch.serialization.safe_globals([argparse.Namespace]):
            checkpoint = torch.load(args.resume, map_location="cpu")
        model_without_ddp.load_state_dict(checkpoint["model"])
        print("Resume checkpoint %s" % args.resume)
        if "optimizer" in checkpoint and "epoch" in checkpoint and not (hasattr(args, "eval") and args.eval):
            optimizer.load_state_dict(checkpoint["optimizer"])
            args.start_epoch = checkpoint["epoch"] + 1
            if "scaler" in checkpoint:
                loss_scaler.load_state_dict(checkpoint["scaler"])
            print("With optim & sched!")


def make_docs(n, seed):
    rng = np.random.RandomState(seed)
    images = rng.rand(n, 3, 32, 32).astype(np.float32)
    masks = np.zeros((n, 32, 32), dtype=np.int64)
    for i in range(n):
        y, x = rng.randint(0, 20, size=2)
        images[i, :, y:y + 12, x:x + 12] += 0.5  # the tampered patch
        masks[i, y:y + 12, x:x + 12] = 1
    dct = images.mean(1, keepdims=True) - images.mean()
    return torch.from_numpy(images), torch.from_numpy(dct), torch.from_numpy(masks)


def train(args):
    model = FFDN(weight_path=args.backbone_path)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.05)
    loss_scaler = NativeScalerWithGradNormCount()
    load_model(args=args, model_without_ddp=model, optimizer=optimizer, loss_scaler=loss_scaler)
    images, dct, masks = make_docs(32, args.seed)
    for epoch in range(args.start_epoch, args.epochs):
        model.train()
        for idx in torch.randperm(len(images)).split(args.batch_size):
            out = model(images[idx], dct[idx], masks[idx])
            optimizer.zero_grad()
            loss_scaler(out["backward_loss"], optimizer, clip_grad=1.0, parameters=model.parameters())
        print(f"epoch {epoch} loss {out['backward_loss'].item():.4f}")
        last = save_model(args, epoch, model, model, optimizer, loss_scaler)
    return last


def get_args_parser(argv):
    parser = argparse.ArgumentParser("ForensicHub training", add_help=False)
    parser.add_argument("--output_dir", default=os.path.join(WORK, "log"))
    parser.add_argument("--backbone_path", default=os.path.join(WORK, "convnext_small.pth"))
    parser.add_argument("--resume", default="")
    parser.add_argument("--start_epoch", default=0, type=int)
    parser.add_argument("--epochs", default=2, type=int)
    parser.add_argument("--batch_size", default=8, type=int)
    parser.add_argument("--lr", default=1e-3, type=float)
    parser.add_argument("--seed", default=42, type=int)
    return parser.parse_args(argv)


# mmseg-style ConvNeXt backbone checkpoint used by init_vph
torch.save({"state_dict": {"backbone." + k: v for k, v in ConvNeXt().state_dict().items()},
            "meta": {"mmseg_version": "0.24.1"}}, os.path.join(WORK, "convnext_small.pth"))

# the released ffdn.pth: a DocTamper run of the same training script (its last checkpoint, renamed)
release_args = get_args_parser(["--output_dir", os.path.join(WORK, "doctamper"), "--epochs", "2"])
os.makedirs(release_args.output_dir)
os.replace(train(release_args), os.path.join(WORK, "ffdn.pth"))

# fine-tuning the released weights on our own receipts
os.makedirs(os.path.join(WORK, "log"))
args = get_args_parser(["--resume", os.path.join(WORK, "ffdn.pth"), "--epochs", "4", "--lr", "2e-4", "--seed", "7"])
print("fine-tuned:", train(args))
