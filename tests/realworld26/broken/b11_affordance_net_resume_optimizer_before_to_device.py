"""3D affordance grounding training script (IAGNet train.py layout) resumed with --resume: the model weights and the Adam state are restored while the model is still on the CPU, and only afterwards is the model moved to the GPU, so Adam's exp_avg/exp_avg_sq stay on the CPU while parameters and gradients are on CUDA
source: https://github.com/yyvhang/IAGNet/issues/4
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (train.py --resume best_seen.pt; fixed by putting model = model.to(device) before loading the checkpoint)
outcome: cuda-only: RuntimeError: Tensors of the same index must be on the same device and the same dtype except `step` tensors that can be CPU and float32/64 notwithstanding (Adam's foreach step groups the CUDA parameters with the exp_avg state restored on the CPU; the reported wording was "Expected all tensors to be on the same device ... cuda:0 and cpu!"; not run on a GPU for this set) at line 60; on CPU: ok
root-cause: line 51
expect: DG015
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


# ---- model/IAGNet.py
class IAGNet(nn.Module):
    def __init__(self, n_points=256, n_aff=18):
        super().__init__()
        self.point_enc = nn.Sequential(nn.Conv1d(3, 64, 1), nn.ReLU(), nn.Conv1d(64, 128, 1))
        self.img_enc = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fuse = nn.Conv1d(128 + 16, 64, 1)
        self.aff_head = nn.Conv1d(64, 1, 1)
        self.cls_head = nn.Linear(64, n_aff)

    def forward(self, img, xyz):
        p = self.point_enc(xyz)
        i = self.img_enc(img).flatten(1)[:, :, None].expand(-1, -1, p.shape[-1])
        f = torch.relu(self.fuse(torch.cat([p, i], 1)))
        return torch.sigmoid(self.aff_head(f)).squeeze(1), self.cls_head(f.mean(-1))


def save_checkpoint(path, model, optimizer, epoch, best):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch, "best": best}, path)


def main(opt):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    data = TensorDataset(torch.rand(32, 3, 32, 32), torch.rand(32, 3, 256), torch.rand(32, 256), torch.randint(0, 18, (32,)))
    loader = DataLoader(data, batch_size=opt.batch_size, shuffle=True)
    model = IAGNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=opt.lr, betas=(0.9, 0.999), weight_decay=opt.decay_rate)
    start_epoch, best = 0, 0.0
    if opt.resume:
        checkpoint = torch.load(opt.checkpoint_path, map_location="cpu")
        model.load_state_dict(checkpoint["model"])
        optimizer.load_state_dict(checkpoint["optimizer"])
        start_epoch, best = checkpoint["epoch"] + 1, checkpoint["best"]
    model = model.to(device)  # root-cause
    for epoch in range(start_epoch, start_epoch + opt.epochs):
        model.train()
        for img, xyz, label, logits_label in loader:
            img, xyz, label, logits_label = img.to(device), xyz.to(device), label.to(device), logits_label.to(device)
            pred, logits = model(img, xyz)
            loss = F.binary_cross_entropy(pred, label) + 0.3 * F.cross_entropy(logits, logits_label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()  # fails-here
        best = max(best, 1.0 / (1.0 + loss.item()))
        save_checkpoint(opt.checkpoint_path, model, optimizer, epoch, best)
    return best


if __name__ == "__main__":
    torch.manual_seed(0)
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--decay_rate", type=float, default=1e-4)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--checkpoint_path", default=os.path.join(tempfile.mkdtemp(), "best_seen.pt"))
    opt = parser.parse_args([])
    print("first run best", main(opt))
    opt.resume = True
    print("resumed best", main(opt))
