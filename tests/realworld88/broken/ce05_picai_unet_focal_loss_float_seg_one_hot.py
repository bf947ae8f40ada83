"""PI-CAI UNet baseline training (DIAGNijmegen/picai_baseline, re-typed as the reporter's installed package ran it: a batchgenerators-style train_gen yielding {'data', 'seg'} float32 arrays, callbacks.optimize_model passing labels straight to the loss, training_setup/loss_functions/focal.py's FocalLoss one-hot encoding its targets, a small 3D UNet, poly_lr): the lesion masks come out of the augmentation pipeline as float32, and FocalLoss.forward's F.one_hot refuses the float target in the first training step
source: https://github.com/DIAGNijmegen/picai_baseline/issues/53
reported-error: RuntimeError: one_hot is only applicable to index tensor. (callbacks.py optimize_model: loss = loss_func(outputs, labels) -> focal.py forward: targets = F.one_hot(targets, num_classes=self.num_classes).float(); "I checked the targets dtype and it returned float32")
outcome: RuntimeError: one_hot is only applicable to index tensor of type LongTensor. at line 89
root-cause: line 124
expect: DG006
"""
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)

SHAPE = (8, 32, 32)  # (D, H, W); (20, 256, 256) in the baseline


# ---- batchgenerators-style data pipeline: bpMRI (T2W, ADC, HBV) + csPCa lesion masks -----------------------------
def make_case():
    d, h, w = SHAPE
    img = rng.normal(0, 1, (3, d, h, w)).astype(np.float32)
    seg = np.zeros((1, d, h, w), dtype=np.float32)
    if rng.random() < 0.6:
        cz, cy, cx = rng.integers(2, d - 2), rng.integers(6, h - 6), rng.integers(6, w - 6)
        seg[0, cz - 1:cz + 2, cy - 4:cy + 4, cx - 4:cx + 4] = 1
        img[:, cz - 1:cz + 2, cy - 4:cy + 4, cx - 4:cx + 4] += np.array([-1.0, -1.5, 2.0], np.float32)[:, None, None, None]
    return img, seg


class DataLoaderFromDataset:
    """Random batches of {'data': (B, 3, D, H, W), 'seg': (B, 1, D, H, W)}; the masks are resampled and augmented
    with the images, so they leave the pipeline in the images' float32 (as batchgenerators' spatial transforms do)."""

    def __init__(self, cases, batch_size):
        self.cases, self.batch_size = cases, batch_size

    def __iter__(self):
        while True:
            idx = rng.integers(0, len(self.cases), self.batch_size)
            data = np.stack([self.cases[i][0] for i in idx])
            seg = np.stack([self.cases[i][1] for i in idx]).astype(np.float32)  # root-cause-alt
            if rng.random() < 0.5:  # mirror augmentation
                data, seg = data[..., ::-1].copy(), seg[..., ::-1].copy()
            yield {"data": data, "seg": seg}


# ---- training_setup/neural_networks: a small 3D UNet --------------------------------------------------------------
def block(cin, cout):
    return nn.Sequential(nn.Conv3d(cin, cout, 3, padding=1), nn.InstanceNorm3d(cout), nn.LeakyReLU(0.01),
                         nn.Conv3d(cout, cout, 3, padding=1), nn.InstanceNorm3d(cout), nn.LeakyReLU(0.01))


class UNet(nn.Module):
    def __init__(self, in_channels=3, num_classes=2, ch=(8, 16, 32)):
        super().__init__()
        self.enc1, self.enc2, self.bott = block(in_channels, ch[0]), block(ch[0], ch[1]), block(ch[1], ch[2])
        self.pool = nn.MaxPool3d((1, 2, 2))
        self.up2 = nn.ConvTranspose3d(ch[2], ch[1], (1, 2, 2), stride=(1, 2, 2))
        self.dec2 = block(2 * ch[1], ch[1])
        self.up1 = nn.ConvTranspose3d(ch[1], ch[0], (1, 2, 2), stride=(1, 2, 2))
        self.dec1 = block(2 * ch[0], ch[0])
        self.out = nn.Conv3d(ch[0], num_classes, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        b = self.bott(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(b), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return self.out(d1)


# ---- training_setup/loss_functions/focal.py -----------------------------------------------------------------------
class FocalLoss(nn.Module):
    """Focal loss function for binary segmentation."""

    def __init__(self, alpha=1, gamma=2, num_classes=2, reduction="sum"):
        super(FocalLoss, self).__init__()
        self.alpha = alpha
        self.gamma = gamma
        self.num_classes = num_classes
        self.reduction = reduction

    def forward(self, inputs, targets):
        inputs = torch.sigmoid(inputs)
        targets = F.one_hot(targets, num_classes=self.num_classes).float()  # fails-here
        targets = torch.moveaxis(targets, (0, 1, 2, 3, 4), (0, 2, 3, 4, 1))
        ce_loss = F.binary_cross_entropy(inputs, targets, reduction="none")
        p_t = (inputs * targets) + ((1 - inputs) * (1 - targets))
        loss = ce_loss * ((1 - p_t) ** self.gamma)
        if self.alpha >= 0:
            alpha_t = self.alpha * targets + (1 - self.alpha) * (1 - targets)
            loss = alpha_t * loss
        if self.reduction == "mean":
            loss = loss.mean()
        elif self.reduction == "sum":
            loss = loss.sum()
        return loss


# ---- training_setup/callbacks.py ----------------------------------------------------------------------------------
def poly_lr(epoch, max_epochs, initial_lr, exponent=0.9):
    return initial_lr * (1 - epoch / max_epochs) ** exponent


def optimize_model(model, optimizer, loss_func, train_gen, args, tracking_metrics, device):
    train_loss, step = 0, 0
    start_time = time.time()
    epoch = tracking_metrics["epoch"]
    for batch_data in train_gen:
        step += 1
        try:
            inputs = batch_data["data"].to(device)
            labels = batch_data["seg"].to(device)
        except Exception:
            inputs = torch.from_numpy(batch_data["data"]).to(device)
            labels = torch.from_numpy(batch_data["seg"]).to(device)
        # the baseline squeezes the channel axis of the masks before the loss
        labels = labels[:, 0, ...]
        outputs = model(inputs)
        loss = loss_func(outputs, labels)  # root-cause
        train_loss += loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step >= args["steps_per_epoch"]:
            break
    updated_lr = poly_lr(epoch + 1, args["num_epochs"], args["base_lr"], 0.95)
    optimizer.param_groups[0]["lr"] = updated_lr
    tracking_metrics["all_train_loss"].append(train_loss / step)
    print(f"epoch {epoch}: train loss {train_loss / step:.4f} ({time.time() - start_time:.1f}s), lr {updated_lr:.6f}")
    return model, optimizer, tracking_metrics


# ---- train.py ----------------------------------------------------------------------------------------------------
args = {"num_epochs": 3, "base_lr": 0.001, "steps_per_epoch": 4, "batch_size": 4, "focal_loss_gamma": 1.0,
        "num_classes": 2}
device = torch.device("cpu")
cases = [make_case() for _ in range(16)]
train_gen = iter(DataLoaderFromDataset(cases, args["batch_size"]))
lesion_fraction = np.mean([c[1].mean() for c in cases])
class_weights = np.array([lesion_fraction, 1 - lesion_fraction])
model = UNet(num_classes=args["num_classes"]).to(device)
loss_func = FocalLoss(alpha=class_weights[-1], gamma=args["focal_loss_gamma"]).to(device)
optimizer = torch.optim.Adam(params=model.parameters(), lr=args["base_lr"], amsgrad=True)
tracking_metrics = {"epoch": 0, "all_train_loss": []}
for epoch in range(args["num_epochs"]):
    tracking_metrics["epoch"] = epoch
    model, optimizer, tracking_metrics = optimize_model(model, optimizer, loss_func, train_gen, args,
                                                        tracking_metrics, device)
