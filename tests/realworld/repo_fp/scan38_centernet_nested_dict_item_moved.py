"""CenterNet's demo moves each scale's image inside a nested dict before the forward

source: https://github.com/zzzxxxttt/pytorch_simple_CenterNet_45/blob/master/demo.py#L120
(`imgs[scale]['image'] = imgs[scale]['image'].to(cfg.device)`, then `model(imgs[scale]['image'])`)
false-alarm: DG009 at demo.py:122 (scan 38): the finding said the CUDA model gets the CPU image; the reassignment of
`d[k1][k2]` was not followed. This reduction runs on the CPU (exit 0).
"""
import numpy as np
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)
imgs = {1: {"image": torch.from_numpy(np.zeros((1, 4), np.float32))}}
for scale in imgs:
    imgs[scale]["image"] = imgs[scale]["image"].to(device)
    out = model(imgs[scale]["image"])
