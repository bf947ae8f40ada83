"""OCP-style predict run on a CPU-only machine: load_checkpoint passes the trainer's own device attribute as map_location, so the GPU-written checkpoint is remapped before the state_dict is loaded
source: https://github.com/facebookresearch/fairchem/pull/250
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from unittest import mock

import torch
import torch.nn as nn


class SchNetLike(nn.Module):
    def __init__(self, num_atom_types=10, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(num_atom_types, hidden)
        self.interaction = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, atomic_numbers):
        return self.interaction(self.embedding(atomic_numbers)).sum()


class ForcesTrainer:
    def __init__(self, cpu=True):
        self.device = torch.device("cpu") if cpu or not torch.cuda.is_available() else torch.device("cuda")
        self.model = SchNetLike().to(self.device)

    def load_checkpoint(self, checkpoint_path):
        map_location = self.device
        checkpoint = torch.load(checkpoint_path, map_location=map_location)
        self.model.load_state_dict(checkpoint["state_dict"])
        return checkpoint["epoch"]


path = os.path.join(tempfile.mkdtemp(), "checkpoint.pt")
with mock.patch.object(torch.serialization, "location_tag", lambda storage: "cuda:0"):
    torch.save({"epoch": 12, "state_dict": SchNetLike().state_dict()}, path)
trainer = ForcesTrainer(cpu=True)
epoch = trainer.load_checkpoint(path)
with torch.no_grad():
    print("epoch", epoch, "energy", trainer.model(torch.tensor([1, 6, 8], device=trainer.device)).item())
