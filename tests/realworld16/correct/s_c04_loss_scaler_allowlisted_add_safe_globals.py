"""Fine-tuning trainer that keeps its DynamicLossScaler object in the checkpoint but registers the class with torch.serialization.add_safe_globals before resuming, so the default weights_only=True load accepts it
source: https://github.com/modelscope/ms-swift/issues/5808
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn


class DynamicLossScaler:
    def __init__(self, init_scale=2.0 ** 16):
        self.cur_scale = init_scale
        self.cur_iter = 0


torch.serialization.add_safe_globals([DynamicLossScaler])


def save_checkpoint(path, model, optimizer, scaler, step):
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "loss_scaler": scaler,
                "global_step": step}, path)


def resume(path, model, optimizer):
    state = torch.load(path, map_location="cpu")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    return state["loss_scaler"], state["global_step"]


model = nn.Sequential(nn.Linear(16, 16), nn.GELU(), nn.Linear(16, 4))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
scaler = DynamicLossScaler()
loss = model(torch.randn(8, 16)).pow(2).mean()
loss.backward()
optimizer.step()
path = os.path.join(tempfile.mkdtemp(), "checkpoint-1.pt")
save_checkpoint(path, model, optimizer, scaler, 1)
scaler, step = resume(path, model, optimizer)
print("resumed at", step, "scale", scaler.cur_scale)
