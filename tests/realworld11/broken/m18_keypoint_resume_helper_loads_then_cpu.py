"""Keypoint-descriptor fine-tuning with checkpoint resume: resume_from() reads a checkpoint produced on a GPU node (cuda:0 storage tags) with torch.load(path) and only afterwards walks the dict calling .cpu() on every tensor, which is too late on a CPU-only machine
source: https://github.com/bluedream1121/RELF/issues/6
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 45
root-cause: line 45
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import serialization


class DescriptorNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(1, dim, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, patch):
        return F.normalize(self.pool(F.relu(self.conv(patch))).flatten(1), dim=1)


def write_gpu_node_checkpoint(path, model, opt, epoch):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"epoch": epoch, "model": model.state_dict(), "optim": opt.state_dict()}, path)
    finally:
        serialization.location_tag = original


def to_cpu(obj):
    if torch.is_tensor(obj):
        return obj.cpu()
    if isinstance(obj, dict):
        return {k: to_cpu(v) for k, v in obj.items()}
    return obj


def resume_from(path, model, opt):
    ckpt = to_cpu(torch.load(path))  # root-cause # fails-here
    model.load_state_dict(ckpt["model"])
    opt.load_state_dict(ckpt["optim"])
    return ckpt["epoch"] + 1


def triplet_step(model, opt):
    a = torch.rand(8, 1, 12, 12)
    p = a + 0.05 * torch.randn_like(a)
    n = torch.rand(8, 1, 12, 12)
    loss = F.triplet_margin_loss(model(a), model(p), model(n), margin=0.3)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    path = os.path.join(tempfile.mkdtemp(), "relf_last.pth")
    model = DescriptorNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    triplet_step(model, opt)
    write_gpu_node_checkpoint(path, model, opt, epoch=4)
    start = resume_from(path, DescriptorNet(), opt)
    print(f"resumed at epoch {start}, loss {triplet_step(model, opt):.4f}")
