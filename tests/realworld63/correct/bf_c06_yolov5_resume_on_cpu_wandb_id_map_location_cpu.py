"""The YOLOv5-style --resume of bf06 (ultralytics/yolov5 #2650) with the W&B run-id lookup reading last.pt with map_location='cpu': the Colab GPU checkpoint (every storage tagged cuda:0) is mapped to the CPU both there and in ckpt = torch.load(weights, map_location=device), and training resumes from epoch 2 on the CPU; the FP16 deepcopies of model and EMA in last.pt and their .float() on load are kept
source: https://github.com/ultralytics/yolov5/issues/2650
reported-error: (none filed; the fixed situation of bf06)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import glob
import json
import math
import os
import tempfile
from copy import deepcopy
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import serialization

torch.manual_seed(0)
PROJECT = Path(tempfile.mkdtemp()) / "runs" / "train"


class Conv(nn.Module):
    def __init__(self, c1, c2, k=1, s=1):
        super().__init__()
        self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
        self.bn = nn.BatchNorm2d(c2)
        self.act = nn.SiLU()

    def forward(self, x):
        return self.act(self.bn(self.conv(x)))


class Model(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.yaml = {"nc": nc, "depth_multiple": 0.33, "width_multiple": 0.25}
        self.model = nn.Sequential(Conv(3, 16, 3, 2), Conv(16, 32, 3, 2), nn.Conv2d(32, 3 * (nc + 5), 1))

    def forward(self, x):
        return self.model(x)


class ModelEMA:
    def __init__(self, model, decay=0.9999, updates=0):
        self.ema = deepcopy(model).eval()
        self.updates = updates
        self.decay = lambda x: decay * (1 - math.exp(-x / 2000))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        with torch.no_grad():
            self.updates += 1
            d = self.decay(self.updates)
            msd = model.state_dict()
            for k, v in self.ema.state_dict().items():
                if v.dtype.is_floating_point:
                    v *= d
                    v += (1. - d) * msd[k].detach()


def select_device(device=""):
    cpu = device.lower() == "cpu"
    if device and not cpu:
        assert torch.cuda.is_available(), f"CUDA unavailable, invalid device {device} requested"
    return torch.device("cuda:0" if not cpu and torch.cuda.is_available() else "cpu")


def get_latest_run(search_dir=PROJECT):
    last_list = glob.glob(f"{search_dir}/**/last*.pt", recursive=True)
    return max(last_list, key=os.path.getctime) if last_list else ""


def train(hyp, opt, device, stop_after=None):
    save_dir, epochs, weights = Path(opt.save_dir), opt.epochs, opt.weights
    wdir = save_dir / "weights"
    wdir.mkdir(parents=True, exist_ok=True)
    last = wdir / "last.pt"
    with open(save_dir / "opt.yaml", "w") as f:
        json.dump(vars(opt), f)

    # Logging
    run_id = torch.load(weights, map_location="cpu", weights_only=False).get("wandb_id") if weights.endswith(".pt") and os.path.isfile(weights) else None
    print(f"wandb run id: {run_id}")

    # Model
    pretrained = weights.endswith(".pt")
    if pretrained:
        ckpt = torch.load(weights, map_location=device, weights_only=False)  # load checkpoint
        model = Model(ckpt["model"].yaml["nc"]).to(device)
        state_dict = ckpt["model"].float().state_dict()  # to FP32
        model.load_state_dict(state_dict, strict=False)
    else:
        model = Model().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=hyp["lr0"], momentum=hyp["momentum"], nesterov=True)
    ema = ModelEMA(model)

    start_epoch, best_fitness = 0, 0.0
    if pretrained:
        if ckpt["optimizer"] is not None:
            optimizer.load_state_dict(ckpt["optimizer"])
            best_fitness = ckpt["best_fitness"]
        if ema and ckpt.get("ema"):
            ema.ema.load_state_dict(ckpt["ema"].float().state_dict())
            ema.updates = ckpt["updates"]
        start_epoch = ckpt["epoch"] + 1
        del ckpt, state_dict

    imgs = torch.randint(0, 256, (32, 3, 64, 64), dtype=torch.uint8)
    targets = torch.rand(32, 24, 16, 16)
    for epoch in range(start_epoch, epochs):
        for i in range(0, 32, 8):
            batch = imgs[i:i + 8].to(device).float() / 255.0
            loss = F.mse_loss(model(batch).sigmoid(), targets[i:i + 8].to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            ema.update(model)
        fitness = 1.0 - loss.item()
        best_fitness = max(best_fitness, fitness)
        ckpt = {"epoch": epoch, "best_fitness": best_fitness, "training_results": f"{epoch} {loss.item():.4f}\n",
                "model": deepcopy(model).half(), "ema": deepcopy(ema.ema).half(), "updates": ema.updates,
                "optimizer": optimizer.state_dict(), "wandb_id": None}
        torch.save(ckpt, last)
        print(f"epoch {epoch}/{epochs - 1} loss {loss.item():.4f} on {device}")
        if stop_after is not None and epoch == stop_after:
            raise TimeoutError("Colab GPU runtime limit reached")


def parse_opt(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--weights", type=str, default="", help="initial weights path")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--resume", nargs="?", const=True, default=False, help="resume most recent training")
    parser.add_argument("--device", default="", help="cuda device, i.e. 0 or 0,1,2,3 or cpu")
    parser.add_argument("--name", default="exp")
    return parser.parse_args(argv)


def main(argv, stop_after=None):
    opt = parse_opt(argv)
    hyp = {"lr0": 0.01, "momentum": 0.937}
    if opt.resume:  # resume an interrupted run
        ckpt = opt.resume if isinstance(opt.resume, str) else get_latest_run()
        assert os.path.isfile(ckpt), "ERROR: --resume checkpoint does not exist"
        with open(Path(ckpt).parent.parent / "opt.yaml") as f:
            opt = argparse.Namespace(**json.load(f))  # replace
        opt.weights, opt.resume = ckpt, True
        print(f"Resuming training from {ckpt}")
    else:
        opt.save_dir = str(PROJECT / opt.name)
    device = select_device(opt.device)
    train(hyp, opt, device, stop_after=stop_after)


# --- on the Colab GPU runtime: every storage written by torch.save lives on cuda:0 ---
_location_tag = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"
try:
    main(["--epochs", "4"], stop_after=1)
except TimeoutError as e:
    print(e)
finally:
    serialization.location_tag = _location_tag

# --- the runtime falls back to CPU: python train.py --resume ---
main(["--resume"])
