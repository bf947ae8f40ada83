"""The Awesome-Backbones-style single-image test of ay04 (Fafa-DL/Awesome-Backbones #77) with the device chosen from what the machine has: --device defaults to None, so single_test falls back to torch.device('cuda' if torch.cuda.is_available() else 'cpu'), load_checkpoint's torch.load(filename, map_location) maps the cuda:0-tagged SGD momentum buffers of the GPU-trained checkpoint to the CPU and the image is classified; the map_location passed as a variable and the cuda-tagged optimizer state in the file are kept
source: https://github.com/Fafa-DL/Awesome-Backbones/issues/77
reported-error: (none filed; the fixed situation of ay04)
outcome: ok
root-cause: -
expect: none
"""
import os
import re
import tempfile
from argparse import ArgumentParser
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import serialization

torch.manual_seed(0)
WORK = tempfile.mkdtemp()
CLASSES = ["Lonicera_japonica", "Lonicera_hypoglauca", "Lonicera_macranthoides", "Lonicera_confusa"]


class BuildNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        c = cfg["backbone"]["width"]
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.BatchNorm2d(c), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(c, 2 * c, 3, padding=1), nn.BatchNorm2d(2 * c), nn.ReLU())
        self.neck = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(2 * c, cfg["head"]["num_classes"])

    def forward(self, x, targets=None, return_loss=True):
        logits = self.head(self.neck(self.backbone(x)).flatten(1))
        if return_loss:
            return {"loss": F.cross_entropy(logits, targets)}
        return F.softmax(logits, dim=1)


def weights_to_cpu(state_dict):
    return OrderedDict((k, v.cpu()) for k, v in state_dict.items())


def save_checkpoint(model, filename, optimizer=None, meta=None):
    checkpoint = {"meta": meta or {}, "state_dict": weights_to_cpu(model.state_dict())}
    if optimizer is not None:
        checkpoint["optimizer"] = optimizer.state_dict()
    torch.save(checkpoint, filename)


def load_checkpoint(model, filename, map_location=None, strict=False, revise_keys=[(r"^module\.", "")]):
    if not os.path.isfile(filename):
        raise FileNotFoundError(f"{filename} can not be found.")
    checkpoint = torch.load(filename, map_location)
    state_dict = checkpoint.get("state_dict", checkpoint)
    for p, r in revise_keys:
        state_dict = OrderedDict({re.sub(p, r, k): v for k, v in state_dict.items()})
    print(model.load_state_dict(state_dict, strict=strict))
    return checkpoint


def init_model(model, data_cfg, device="cuda:0", mode="eval"):
    print("Loading {}".format(data_cfg["test"]["ckpt"].split("/")[-1]))
    load_checkpoint(model, data_cfg["test"]["ckpt"], device, False)
    model.to(device)
    if mode == "eval":
        model.eval()
    return model


def inference_model(model, image, classes_names):
    image = torch.from_numpy(np.load(image)).float().div(255).permute(2, 0, 1).unsqueeze(0)
    device = next(model.parameters()).device
    with torch.no_grad():
        scores = model(image.to(device), return_loss=False)
        pred_score, pred_label = torch.max(scores, axis=1)
    return {"pred_label": pred_label.item(), "pred_score": float(pred_score), "pred_class": classes_names[pred_label.item()]}


model_cfg = {"backbone": {"width": 16}, "head": {"num_classes": len(CLASSES)}}
data_cfg = {"test": {"ckpt": os.path.join(WORK, "Train_Epoch089.pth")}}

# --- on the GPU server: tools/train.py (the optimizer state lives on cuda:0 there) ---
protos = torch.rand(len(CLASSES), 3, 32, 32)
labels = torch.randint(0, len(CLASSES), (256,))
images = (protos[labels] + 0.15 * torch.randn(256, 3, 32, 32)).clamp(0, 1)
net = BuildNet(model_cfg)
optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
for epoch in range(3):
    for idx in torch.randperm(256).split(32):
        loss = net(images[idx], labels[idx])["loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")
cuda_storages = {t.untyped_storage().data_ptr() for s in optimizer.state.values() for t in s.values()
                 if torch.is_tensor(t)}
original_tag = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0" if storage.data_ptr() in cuda_storages else original_tag(storage)
try:
    save_checkpoint(net, data_cfg["test"]["ckpt"], optimizer=optimizer, meta={"epoch": 89, "CLASSES": CLASSES})
finally:
    serialization.location_tag = original_tag
img_path = os.path.join(WORK, "0006.npy")
np.save(img_path, (images[0].permute(1, 2, 0) * 255).to(torch.uint8).numpy())


# --- on the CPU-only laptop: tools/single_test.py ---
def main(argv):
    parser = ArgumentParser()
    parser.add_argument("img", help="Image file")
    parser.add_argument("config", help="Config file")
    parser.add_argument("--device", default=None, help="Device used for inference (default: cuda if available)")
    parser.add_argument("--save-path", help="The path to save prediction image, default not to save.")
    args = parser.parse_args(argv)
    if args.device is not None:
        device = torch.device(args.device)
    else:
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BuildNet(model_cfg)
    model = init_model(model, data_cfg, device=device, mode="eval")
    result = inference_model(model, args.img, CLASSES)
    print(result)


main([img_path, "models/swin_transformer_v2/small_256.py"])
