"""Fine-tuning trainer whose save_checkpoint() stores its DynamicLossScaler object itself next to the model and optimizer state; resume() reloads with torch.load(path, map_location="cpu") and the default weights_only=True rejects the custom class
source: https://github.com/modelscope/ms-swift/issues/5808
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL deepspeed.runtime.fp16.loss_scaler.LossScaler was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.DynamicLossScaler was not an allowed global by default. ... at line 37
root-cause: line 31
expect: DG011
"""
import os
import tempfile

import torch
import torch.nn as nn


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 16, scale_window=1000):
        self.cur_scale = init_scale
        self.scale_window = scale_window
        self.cur_iter = 0

    def update_scale(self, overflow):
        self.cur_iter += 1
        if overflow:
            self.cur_scale /= 2


def save_checkpoint(path, model, optimizer, scaler, step):
    torch.save({
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "loss_scaler": scaler,  # root-cause
        "global_step": step,
    }, path)


def resume(path, model, optimizer):
    state = torch.load(path, map_location="cpu")  # fails-here
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    return state["loss_scaler"], state["global_step"]


model = nn.Sequential(nn.Linear(16, 16), nn.GELU(), nn.Linear(16, 4))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = DynamicLossScaler()
for step in range(3):
    loss = model(torch.randn(8, 16)).pow(2).mean() * scaler.cur_scale
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scaler.update_scale(overflow=False)
path = os.path.join(tempfile.mkdtemp(), "checkpoint-3.pt")
save_checkpoint(path, model, optimizer, scaler, 3)
scaler, step = resume(path, model, optimizer)
print("resumed at", step, "scale", scaler.cur_scale)
