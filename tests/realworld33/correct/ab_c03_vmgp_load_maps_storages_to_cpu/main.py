"""Variational meta-GP evaluation (vivekmyers/vmgp layout), fixed: the evaluation script passes map_location=lambda storage, loc: storage to models.VMGP.load, so torch.load keeps the GPU-written storages on the CPU and VMGP.load then moves the model to device.device (a torch.device('cpu:0') as map_location is refused by torch.load: 'don't know how to restore data location ... tagged with cpu:0')
source: https://github.com/vivekmyers/vmgp/blob/ae5e2ff6f481344ae97e42b7c6b041f0c1cd378c/device.py
reported-error: (none: the map_location is passed by the evaluation script through the model's own load method in models.py, which then moves the model to device.device)
outcome: ok (exit 0)
root-cause: -
expect: none
"""
import math
import os
import tempfile

import torch

from device import device
from gpu_run import meta_train_on_gpu
from models import VMGP

ckpt_dir = tempfile.mkdtemp()
ckpt = os.path.join(ckpt_dir, 'vmgp_sinusoid.pt')
meta_train_on_gpu(ckpt)  # the checkpoint comes from the authors' GPU run

model = VMGP()
model = model.load(ckpt, map_location=lambda storage, loc: storage)  # VMGP.load moves it to device.device
model.eval()

errors = []
for task in range(5):
    amp, phase = 0.5 + 4.5 * torch.rand(()), math.pi * torch.rand(())
    x = torch.empty(30, 1).uniform_(-5, 5).to(device)
    y = amp * torch.sin(x + phase)
    with torch.no_grad():
        pred = model.predict(x[:10], y[:10], x[10:])
    errors.append(((pred - y[10:]) ** 2).mean().item())
print(f"mean squared error over 5 tasks: {sum(errors) / len(errors):.3f}")
