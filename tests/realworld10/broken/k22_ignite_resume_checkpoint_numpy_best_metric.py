"""Resume-from-checkpoint in an ignite-like training script: the saved trainer state keeps the best validation metric as returned by numpy (np.float64 from np.mean) next to the model and optimizer state_dicts, so torch.load with the default weights_only=True refuses the numpy scalar when training is resumed
source: https://github.com/lincc-frameworks/hyrax/issues/537
reported-error: _pickle.UnpicklingError: Weights only load failed ... WeightsUnpickler error: Unsupported global ... (resuming with prev_checkpoint = torch.load(config["train"]["resume"], map_location=device); fixed with weights_only=False)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 58
root-cause: line 45
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn


class Checkpoint:
    def __init__(self, to_save, dirname):
        self.to_save, self.dirname = to_save, dirname

    def __call__(self, engine_state):
        payload = {k: v.state_dict() for k, v in self.to_save.items()}
        payload["engine"] = dict(engine_state)
        path = os.path.join(self.dirname, f"checkpoint_{engine_state['epoch']}.pt")
        torch.save(payload, path)
        return path

    @staticmethod
    def load_objects(to_load, checkpoint):
        for k, obj in to_load.items():
            obj.load_state_dict(checkpoint[k])


def run_epochs(model, optimizer, start, stop, state, saver):
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    path = None
    for epoch in range(start, stop):
        losses = []
        for i in range(0, 64, 16):
            loss = nn.functional.mse_loss(model(x[i : i + 16]), y[i : i + 16])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        state["epoch"] = epoch + 1
        state["best_val"] = min(state.get("best_val", np.inf), np.mean(losses))  # root-cause
        path = saver(state)
    return path


config = {"train": {"resume": None, "epochs": 2}}
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
to_save = {"model": model, "optimizer": optimizer}
saver = Checkpoint(to_save, tempfile.mkdtemp())
config["train"]["resume"] = run_epochs(model, optimizer, 0, config["train"]["epochs"], {}, saver)

device = torch.device("cpu")
prev_checkpoint = torch.load(config["train"]["resume"], map_location=device)  # fails-here
Checkpoint.load_objects(to_load=to_save, checkpoint=prev_checkpoint)
run_epochs(model, optimizer, prev_checkpoint["engine"]["epoch"], 3, prev_checkpoint["engine"], saver)
print("resumed at epoch", prev_checkpoint["engine"]["epoch"])
