"""Spatial segmentation net trained in half precision: build_model(cfg) converts the network with .half() when cfg["precision"] == "half" and the training loop uses torch.optim.Adam with its default eps=1e-8, which is 0 in float16; dead units with zero gradients turn into NaN after the first steps, no error raised
source: https://github.com/soumith/cudnn.torch/issues/377
reported-error: none raised (loss is NaN when using half precision; the default Adam epsilon of 1e-8 is rounded to zero)
outcome: ok (silent: after optimizer.step() at line 40 the float16 weights become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 20
expect: DG012
"""
import torch
import torch.nn as nn


def build_model(cfg):
    torch.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, cfg["n_classes"], 1),
    )
    if cfg["precision"] == "half":
        net = net.half()  # root-cause
    return net


def make_batch(cfg, dtype):
    images = torch.rand(4, 3, 16, 16).to(dtype)
    labels = torch.randint(0, cfg["n_classes"], (4, 16, 16))
    return images, labels


cfg = {"precision": "half", "n_classes": 4, "lr": 1e-3, "steps": 6}
model = build_model(cfg)
dtype = next(model.parameters()).dtype
optimizer = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
criterion = nn.CrossEntropyLoss()
for step in range(cfg["steps"]):
    images, labels = make_batch(cfg, dtype)
    loss = criterion(model(images).float(), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
    print(f"step {step}: loss {loss.item():.4f}, non-finite params {bad}")
