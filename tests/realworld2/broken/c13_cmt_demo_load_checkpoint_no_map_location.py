"""CMT inpainting demo: utils._load calls torch.load(checkpoint_path) on a checkpoint saved from cuda:0
source: https://github.com/keunsoo-ko/CMT/issues/1
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 19
root-cause: line 19
expect: DG010
"""
import argparse
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


# --- utils.py ----------------------------------------------------------------------------
def _load(checkpoint_path):
    checkpoint = torch.load(checkpoint_path)  # root-cause # fails-here
    return checkpoint


def load_checkpoint(path, model, optimizer=None, reset_optimizer=True, is_dis=False):
    print("Load checkpoint from: {}".format(path))
    checkpoint = _load(path)
    if is_dis:
        s = checkpoint["disc"]
    else:
        s = checkpoint["state_dict"]
    new_s = {}
    for k, v in s.items():
        new_s[k.replace('module.', '')] = v
    model.load_state_dict(new_s, strict=True)
    if not reset_optimizer:
        optimizer_state = checkpoint["optimizer"]
        if optimizer_state is not None:
            print("Load optimizer state from {}".format(path))
            optimizer.load_state_dict(checkpoint["optimizer"])
    return model


def psnr(img1, img2):
    mse = np.mean((img1 - img2) ** 2)
    if mse == 0:
        return 100
    PIXEL_MAX = 255.0
    return 20 * np.log10(PIXEL_MAX / np.sqrt(mse))


# --- model.py (shrunk) -------------------------------------------------------------------
class Proposed(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(4, 8, 3, padding=1)
        self.dec = nn.Conv2d(8, 3, 3, padding=1)

    def forward(self, img, mask):
        return torch.sigmoid(self.dec(torch.relu(self.enc(torch.cat([img * (1 - mask), mask], 1)))))


def release_checkpoint(path):
    """Writes the file the authors published: trained under DataParallel on cuda:0. Without a GPU the
    storages are tagged 'cuda:0' by patching location_tag, which is byte-for-byte what a GPU save writes."""
    state = {"module." + k: v for k, v in Proposed().state_dict().items()}
    original = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"state_dict": state, "optimizer": None}, path)
    finally:
        torch.serialization.location_tag = original


# --- demo.py -----------------------------------------------------------------------------
if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default=os.path.join(tempfile.mkdtemp(), "Place2.pth"))
    args = parser.parse_args([])
    if not torch.cuda.is_available():
        release_checkpoint(args.ckpt)
    else:
        torch.save({"state_dict": {"module." + k: v for k, v in Proposed().cuda().state_dict().items()},
                    "optimizer": None}, args.ckpt)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    proposed = Proposed()
    proposed = load_checkpoint(args.ckpt, proposed)
    proposed = proposed.to(device).eval()
    img = torch.rand(1, 3, 32, 32, device=device)
    mask = (torch.rand(1, 1, 32, 32, device=device) > 0.8).float()
    with torch.no_grad():
        out = proposed(img, mask)
    print("PSNR:", psnr(out.cpu().numpy() * 255, img.cpu().numpy() * 255))
