"""SNUNet-CD change detection on bi-temporal satellite patches (likyoo/Siam-NestedUNet at aed3f18, re-typed: train.py's loop on `dev`, helpers.get_criterion('hybrid'), losses.hybrid_loss, metrics.FocalLoss and metrics.dice_loss, a narrower SNUNet_ECAM; the CDD image pairs and change masks are synthetic uint8 arrays): dice_loss one-hot encodes the labels by indexing torch.eye(num_classes), made on the CPU, with the label tensor the loop moved to `dev`; on a GPU the CUDA indices into the CPU identity fail
source: https://github.com/likyoo/Siam-NestedUNet/issues/40
reported-error: RuntimeError: indices should be either on cpu or on the same device as the indexed tensor (cpu) (train.py cd_loss = criterion(cd_preds, labels) -> losses.py hybrid_loss -> metrics.py dice_loss: true_1_hot = torch.eye(num_classes)[true.squeeze(1)])
outcome: cuda-only: RuntimeError: indices should be either on cpu or on the same device as the indexed tensor (cpu) at line 135; on CPU: ok
root-cause: line 135
expect: DG009
"""
import logging

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data

logging.basicConfig(level=logging.INFO)
opt = {"patch_size": 32, "num_channel": 3, "epochs": 2, "batch_size": 4, "learning_rate": 1e-3,
       "loss_function": "hybrid"}
dev = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
logging.info("GPU AVAILABLE? " + str(torch.cuda.is_available()))
torch.manual_seed(777)
rng = np.random.default_rng(777)


# ---- utils/dataloaders.py: CDD image pairs (A, B) and change masks (OUT), synthetic ---------------------------------
class CDDloader(torch.utils.data.Dataset):
    def __init__(self, n, aug=False):
        self.items = []
        p = opt["patch_size"]
        for _ in range(n):
            img1 = rng.integers(40, 120, (p, p, 3), dtype=np.uint8)
            img2 = img1.copy()
            label = np.zeros((p, p), np.uint8)
            y, x = rng.integers(4, p - 12, 2)
            img2[y:y + 8, x:x + 8] = rng.integers(180, 255, (8, 8, 3), dtype=np.uint8)  # a new building
            label[y:y + 8, x:x + 8] = 1
            self.items.append((img1, img2, label))
        self.aug = aug

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        img1, img2, label = self.items[index]
        # transforms: Normalize(mean=(0.5,)*3, std=(0.5,)*3) + ToTensor
        img1 = torch.from_numpy(((img1 / 255.0 - 0.5) / 0.5).transpose(2, 0, 1))
        img2 = torch.from_numpy(((img2 / 255.0 - 0.5) / 0.5).transpose(2, 0, 1))
        return img1, img2, torch.from_numpy(label)


def get_loaders(opt):
    train_dataset = CDDloader(16, aug=True)
    val_dataset = CDDloader(4, aug=False)
    train_loader = torch.utils.data.DataLoader(train_dataset, batch_size=opt["batch_size"], shuffle=True)
    val_loader = torch.utils.data.DataLoader(val_dataset, batch_size=opt["batch_size"], shuffle=False)
    return train_loader, val_loader


# ---- models/Models.py: SNUNet_ECAM (nested Siamese UNet with an ensemble channel attention head), narrowed ---------
class conv_block_nested(nn.Module):
    def __init__(self, in_ch, mid_ch, out_ch):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, mid_ch, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(mid_ch)
        self.conv2 = nn.Conv2d(mid_ch, out_ch, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(out_ch)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        identity = x
        return F.relu(self.bn2(self.conv2(x)) + identity)


class SNUNet_ECAM(nn.Module):
    def __init__(self, in_ch=3, out_ch=2, n1=8):
        super().__init__()
        filters = [n1, n1 * 2, n1 * 4]
        self.pool = nn.MaxPool2d(2, 2)
        self.Up1_0 = nn.ConvTranspose2d(filters[1], filters[1], 2, stride=2)
        self.Up2_0 = nn.ConvTranspose2d(filters[2], filters[2], 2, stride=2)
        self.Up1_1 = nn.ConvTranspose2d(filters[1], filters[1], 2, stride=2)
        self.conv0_0 = conv_block_nested(in_ch, filters[0], filters[0])
        self.conv1_0 = conv_block_nested(filters[0], filters[1], filters[1])
        self.conv2_0 = conv_block_nested(filters[1], filters[2], filters[2])
        self.conv0_1 = conv_block_nested(filters[0] * 2 + filters[1], filters[0], filters[0])
        self.conv1_1 = conv_block_nested(filters[1] * 2 + filters[2], filters[1], filters[1])
        self.conv0_2 = conv_block_nested(filters[0] * 3 + filters[1], filters[0], filters[0])
        self.ca = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(filters[0] * 2, filters[0] * 2, 1), nn.Sigmoid())
        self.conv_final = nn.Conv2d(filters[0] * 2, out_ch, kernel_size=1)

    def forward(self, xA, xB):
        x0_0A = self.conv0_0(xA)
        x1_0A = self.conv1_0(self.pool(x0_0A))
        x2_0A = self.conv2_0(self.pool(x1_0A))
        x0_0B = self.conv0_0(xB)
        x1_0B = self.conv1_0(self.pool(x0_0B))
        x2_0B = self.conv2_0(self.pool(x1_0B))
        x0_1 = self.conv0_1(torch.cat([x0_0A, x0_0B, self.Up1_0(x1_0B)], 1))
        x1_1 = self.conv1_1(torch.cat([x1_0A, x1_0B, self.Up2_0(x2_0B)], 1))
        x0_2 = self.conv0_2(torch.cat([x0_0A, x0_0B, x0_1, self.Up1_1(x1_1)], 1))
        out = torch.cat([x0_1, x0_2], 1)
        out = out * self.ca(out)
        out = self.conv_final(out)
        return (out,)


# ---- utils/metrics.py ---------------------------------------------------------------------------------------------
class FocalLoss(nn.Module):
    def __init__(self, gamma=0, alpha=None, size_average=True):
        super(FocalLoss, self).__init__()
        self.gamma = gamma
        self.alpha = alpha
        self.size_average = size_average

    def forward(self, input, target):
        if input.dim() > 2:
            input = input.view(input.size(0), input.size(1), -1)  # N,C,H,W => N,C,H*W
            input = input.transpose(1, 2)  # N,C,H*W => N,H*W,C
            input = input.contiguous().view(-1, input.size(2))  # N,H*W,C => N*H*W,C
        target = target.view(-1, 1)
        logpt = F.log_softmax(input, dim=1)
        logpt = logpt.gather(1, target)
        logpt = logpt.view(-1)
        pt = logpt.data.exp()
        loss = -1 * (1 - pt) ** self.gamma * logpt
        if self.size_average:
            return loss.mean()
        else:
            return loss.sum()


def dice_loss(logits, true, eps=1e-7):
    """Computes the Sorensen-Dice loss; true: [B, 1, H, W] (or [B, H, W]), logits: [B, C, H, W]."""
    num_classes = logits.shape[1]
    true_1_hot = torch.eye(num_classes)[true.squeeze(1)]  # root-cause  # fails-here
    true_1_hot = true_1_hot.permute(0, 3, 1, 2).float()
    probas = F.softmax(logits, dim=1)
    true_1_hot = true_1_hot.type(logits.type())
    dims = (0,) + tuple(range(2, true.ndimension()))
    intersection = torch.sum(probas * true_1_hot, dims)
    cardinality = torch.sum(probas + true_1_hot, dims)
    dice_loss = (2. * intersection / (cardinality + eps)).mean()
    return (1 - dice_loss)


# ---- utils/losses.py and helpers.get_criterion --------------------------------------------------------------------
def hybrid_loss(predictions, target):
    """Calculating the loss"""
    loss = 0
    # gamma=0, alpha=None --> CE
    focal = FocalLoss(gamma=0, alpha=None)
    for prediction in predictions:
        bce = focal(prediction, target)
        dice = dice_loss(prediction, target)
        loss += bce + dice
    return loss


def get_criterion(opt):
    if opt["loss_function"] == "hybrid":
        criterion = hybrid_loss
    else:
        criterion = nn.CrossEntropyLoss()
    return criterion


# ---- train.py -----------------------------------------------------------------------------------------------------
train_loader, val_loader = get_loaders(opt)
model = SNUNet_ECAM(opt["num_channel"], 2).to(dev)
criterion = get_criterion(opt)
optimizer = torch.optim.AdamW(model.parameters(), lr=opt["learning_rate"])
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=8, gamma=0.5)

for epoch in range(opt["epochs"]):
    model.train()
    train_losses = []
    for batch_img1, batch_img2, labels in train_loader:
        batch_img1 = batch_img1.float().to(dev)
        batch_img2 = batch_img2.float().to(dev)
        labels = labels.long().to(dev)
        optimizer.zero_grad()
        cd_preds = model(batch_img1, batch_img2)
        cd_loss = criterion(cd_preds, labels)
        loss = cd_loss
        loss.backward()
        optimizer.step()
        train_losses.append(cd_loss.item())
    scheduler.step()
    model.eval()
    tp = fp = fn = 0
    with torch.no_grad():
        for batch_img1, batch_img2, labels in val_loader:
            batch_img1 = batch_img1.float().to(dev)
            batch_img2 = batch_img2.float().to(dev)
            labels = labels.long().to(dev)
            cd_preds = model(batch_img1, batch_img2)[-1]
            _, cd_preds = torch.max(cd_preds, 1)
            tp += int(((cd_preds == 1) & (labels == 1)).sum())
            fp += int(((cd_preds == 1) & (labels == 0)).sum())
            fn += int(((cd_preds == 0) & (labels == 1)).sum())
    f1 = 2 * tp / max(2 * tp + fp + fn, 1)
    logging.info(f"EPOCH {epoch} train loss {np.mean(train_losses):.4f}, val cd_f1score {f1:.3f}")
