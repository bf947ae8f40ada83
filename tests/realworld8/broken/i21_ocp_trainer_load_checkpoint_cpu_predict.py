"""OCP-style main.py in predict mode with --cpu: the trainer's load_checkpoint calls torch.load(checkpoint_path) without map_location on a checkpoint that was written by a GPU training run
source: https://github.com/facebookresearch/fairchem/pull/250
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 55
root-cause: line 55
expect: DG010
"""
import argparse
import contextlib
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


@contextlib.contextmanager
def saved_by_gpu_run():
    """The checkpoint comes from a CUDA training run: every storage in it is tagged cuda:0."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        yield
    finally:
        torch.serialization.location_tag = orig


class SchNetLike(nn.Module):
    def __init__(self, num_atom_types=10, hidden=32):
        super().__init__()
        self.embedding = nn.Embedding(num_atom_types, hidden)
        self.interaction = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, atomic_numbers, batch, num_graphs):
        per_atom = self.interaction(self.embedding(atomic_numbers)).squeeze(-1)
        return torch.zeros(num_graphs).index_add_(0, batch, per_atom)


class ForcesTrainer:
    def __init__(self, config):
        self.config = config
        self.device = torch.device("cpu") if config["cpu"] or not torch.cuda.is_available() else torch.device("cuda")
        self.model = SchNetLike().to(self.device)
        self.epoch, self.step = 0, 0

    def save(self, checkpoint_path):
        with saved_by_gpu_run():
            torch.save({"epoch": 12, "step": 4800, "state_dict": self.model.state_dict(), "config": {"model": "schnet"}}, checkpoint_path)

    def load_checkpoint(self, checkpoint_path):
        if not os.path.isfile(checkpoint_path):
            raise FileNotFoundError(f"Checkpoint {checkpoint_path} not found")
        print(f"Loading checkpoint from: {checkpoint_path}")
        checkpoint = torch.load(checkpoint_path)  # root-cause # fails-here
        self.epoch, self.step = checkpoint.get("epoch", 0), checkpoint.get("step", 0)
        self.model.load_state_dict(checkpoint["state_dict"])

    @torch.no_grad()
    def predict(self, atomic_numbers, batch, num_graphs):
        self.model.eval()
        return self.model(atomic_numbers.to(self.device), batch.to(self.device), num_graphs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="predict")
    parser.add_argument("--cpu", action="store_true", default=True)
    parser.add_argument("--checkpoint", default=os.path.join(tempfile.mkdtemp(), "checkpoint.pt"))
    args = parser.parse_args()
    config = {"cpu": args.cpu}
    ForcesTrainer(config).save(args.checkpoint)
    trainer = ForcesTrainer(config)
    if args.mode == "predict":
        trainer.load_checkpoint(args.checkpoint)
        energies = trainer.predict(torch.tensor([1, 6, 8, 1, 1]), torch.tensor([0, 0, 0, 1, 1]), 2)
        print("predicted energies:", energies.tolist())


if __name__ == "__main__":
    main()
