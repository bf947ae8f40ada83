"""Resuming from a checkpoint with the community workaround for "If capturable=False, state_steps should not be CUDA tensors": load_optimizer_state_dict forces param_groups[0]['capturable'] = True, and the resumed run happens on a CPU-only node
source: https://github.com/Lightning-AI/pytorch-lightning/issues/13695
reported-error: AssertionError: If capturable=False, state_steps should not be CUDA tensors. (workaround: optimizer.param_groups[0]['capturable'] = True after optimizer.load_state_dict)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 58
root-cause: line 32
expect: DG016
"""
import os
import tempfile
from typing import Any, Mapping

import torch
import torch.nn as nn


def optimizer_to_device(optimizer, device):
    for state in optimizer.state.values():
        for k, v in state.items():
            if isinstance(v, torch.Tensor):
                state[k] = v.to(device)


class Strategy:
    def __init__(self, root_device):
        self.root_device = root_device
        self.optimizers = []

    def load_optimizer_state_dict(self, checkpoint: Mapping[str, Any]) -> None:
        optimizer_states = checkpoint["optimizer_states"]
        for optimizer, opt_state in zip(self.optimizers, optimizer_states):
            optimizer.load_state_dict(opt_state)
            optimizer.param_groups[0]["capturable"] = True  # root-cause
            optimizer_to_device(optimizer, self.root_device)


class SurfEmbLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 8))

    def training_step(self, batch):
        x, y = batch
        return nn.functional.mse_loss(self.mlp(x), y)


def fit(model, strategy, steps, ckpt_path=None):
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    strategy.optimizers = [optimizer]
    if ckpt_path is not None:
        checkpoint = torch.load(ckpt_path)
        model.load_state_dict(checkpoint["state_dict"])
        strategy.load_optimizer_state_dict(checkpoint)
    for step in range(steps):
        batch = (torch.randn(16, 3, device=strategy.root_device), torch.randn(16, 8, device=strategy.root_device))
        loss = model.training_step(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    return optimizer, loss.item()


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    ckpt_path = os.path.join(tempfile.mkdtemp(), "last.ckpt")
    model = SurfEmbLike().to(device)
    optimizer, loss = fit(model, Strategy(device), steps=5)
    torch.save({"state_dict": model.state_dict(), "optimizer_states": [optimizer.state_dict()]}, ckpt_path)
    print("first run loss", loss)
    resumed = SurfEmbLike().to(device)
    _, loss = fit(resumed, Strategy(device), steps=5, ckpt_path=ckpt_path)
    print("resumed run loss", loss)
