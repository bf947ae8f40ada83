"""YOLOv4 training with --amp (zjykzj/YOLOv4 layout), fixed: yolo/model/build.py's build_model(args, cfg, device) leaves the weights float32 under --amp; autocast(float16) runs the convolutions in half precision and the GradScaler unscales float32 gradients
source: https://github.com/zjykzj/YOLOv4/blob/cee7fd223c5c0712105e61f8e19b161db2c3ffdf/yolo/model/build.py
reported-error: (none: amp is read by the entry script for autocast and the GradScaler, the factory does not cast)
outcome: ok (exit 0)
root-cause: -
expect: none
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
        outputs = model(images)
        loss = criterion(outputs, targets)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    print(f"iter {i} loss {loss.item():.4f}")
