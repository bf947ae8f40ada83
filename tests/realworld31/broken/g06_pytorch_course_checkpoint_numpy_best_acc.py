"""Course CNN trainer with the repository's utils.save_checkpoint/load_checkpoint: the training script stores the best validation accuracy computed with np.mean in the checkpoint dict, a NumPy float64 scalar that torch.load's default weights_only=True refuses when training is resumed
source: https://github.com/JonasBlx/pytorch_course/blob/40668bdae8d24ad24c9dc05726718aebbb6fbf6b/utils.py
reported-error: (none filed; the utils' torch.load(checkpoint, map_location=map_location) of a checkpoint holding a NumPy scalar: _pickle.UnpicklingError: Weights only load failed ... Unsupported global: GLOBAL numpy._core.multiarray.scalar)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 32
root-cause: line 70
expect: DG011
"""
import os
import tempfile
from pathlib import Path
from typing import Any, Mapping, MutableMapping, Optional, Union

import numpy as np
import torch
from torch import nn, optim

Checkpoint = Mapping[str, Any]
CheckpointInput = Union[str, Path, Checkpoint]


# ---- utils.py
def save_checkpoint(state: Checkpoint, filename: str = "my_checkpoint.pth.tar") -> None:
    path = Path(filename)
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"=> Saving checkpoint to {path}")
    torch.save(dict(state), path)


def load_checkpoint(checkpoint: CheckpointInput, model: nn.Module, optimizer: Optional[optim.Optimizer] = None,
                    map_location: Optional[Union[str, torch.device]] = None) -> MutableMapping[str, Any]:
    if isinstance(checkpoint, (str, Path)):
        payload = torch.load(checkpoint, map_location=map_location)  # fails-here
    else:
        payload = dict(checkpoint)
    print("=> Loading checkpoint")
    model.load_state_dict(payload["state_dict"])
    if optimizer is not None and "optimizer" in payload:
        optimizer.load_state_dict(payload["optimizer"])
    return payload


# ---- save_and_load_cnn.py
class CNN(nn.Module):
    def __init__(self, in_channels=1, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, 8, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(8 * 14 * 14, num_classes)

    def forward(self, x):
        return self.fc1(self.pool(torch.relu(self.conv1(x))).reshape(x.shape[0], -1))


def main(ckpt_dir):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = CNN().to(device)
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    filename = os.path.join(ckpt_dir, "my_checkpoint.pth.tar")
    accs = []
    for epoch in range(2):
        data, targets = torch.randn(16, 1, 28, 28, device=device), torch.randint(0, 10, (16,), device=device)
        scores = model(data)
        loss = criterion(scores, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        accs.append((scores.argmax(1) == targets).float().mean().item())
        checkpoint = {"state_dict": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch,
                      "best_acc": np.mean(accs)}  # root-cause
        save_checkpoint(checkpoint, filename)
    payload = load_checkpoint(filename, model, optimizer, map_location=device)
    print("resumed at epoch", payload["epoch"], "best acc", payload["best_acc"])


if __name__ == "__main__":
    torch.manual_seed(0)
    main(tempfile.mkdtemp())
