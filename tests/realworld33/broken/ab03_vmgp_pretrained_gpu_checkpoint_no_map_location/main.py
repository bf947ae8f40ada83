"""Variational meta-GP evaluation (vivekmyers/vmgp layout: device.py picks the device once, models.py holds the model with its own save/load, run.py evaluates a meta-trained checkpoint): the checkpoint was written on a GPU, and the evaluation script calls model.load(path) without passing device.device as map_location, so torch.load in models.py tries to restore CUDA storages on a CPU-only machine
source: https://github.com/vivekmyers/vmgp/blob/ae5e2ff6f481344ae97e42b7c6b041f0c1cd378c/device.py
reported-error: (the repository's device module itself; the variant's evaluation loads a GPU-written checkpoint without map_location and fails on CPU with RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at models.py:37
root-cause: main.py:23
expect: DG010
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
model = model.load(ckpt)  # root-cause
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
