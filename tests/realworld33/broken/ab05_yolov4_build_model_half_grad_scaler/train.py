"""YOLOv4 training with --amp (zjykzj/YOLOv4 layout: train.py calls yolo.model.build_model(args, cfg, device) and trains under a GradScaler when args.amp): the model factory in yolo/model/build.py also casts the model to float16 when amp is on, so the float16 gradients reach GradScaler, whose unscale step refuses them
source: https://github.com/zjykzj/YOLOv4/blob/cee7fd223c5c0712105e61f8e19b161db2c3ffdf/yolo/model/build.py
reported-error: (the repository's factory moves the model to the device and memory format only; the variant's model.half() under --amp fails at the first scaler.step with ValueError: Attempting to unscale FP16 gradients.)
outcome: ValueError: Attempting to unscale FP16 gradients. at train.py:39
root-cause: yolo/model/build.py:18
expect: DG014
"""
import argparse

import torch

from yolo.model import build_criterion, build_model

parser = argparse.ArgumentParser(description="YOLOv4 training")
parser.add_argument("--amp", action="store_true", default=False)
parser.add_argument("--channels-last", action="store_true", default=False)
parser.add_argument("--lr", type=float, default=1e-3)
args = parser.parse_args(["--amp"])

cfg = {
    "MODEL": {"N_CLASSES": 4, "ANCHOR_MASK": [[0, 1, 2]]},
    "CRITERION": {"IGNORE_THRESH": 0.7},
}
device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
model = build_model(args, cfg, device=device)
criterion = build_criterion(cfg, device=device)
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
scaler = torch.amp.GradScaler(device.type, enabled=args.amp)

model.train()
for i in range(4):
    images = torch.randn(2, 3, 64, 64, device=device)
    targets = torch.rand(2, 27, 8, 8, device=device)
    with torch.autocast(device.type, dtype=torch.float16, enabled=args.amp):
        outputs = model(images.half() if args.amp else images)
        loss = criterion(outputs, targets)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # fails-here
    scaler.update()
    print(f"iter {i} loss {loss.item():.4f}")
