"""Hand-rolled Hugging-Face-style Trainer with checkpoint resumption: _save_rng_state writes the Python, NumPy and torch RNG states to rng_state.pth, where np.random.get_state() is a tuple holding a NumPy array, and _load_rng_state reads it back on resume with torch.load's default weights_only=True
source: https://app.semanticdiff.com/gh/huggingface/transformers/commit/1339a14dca0c633f74bc8fb771aa8a651dd472b0
reported-error: _pickle.UnpicklingError: Weights only load failed. ... Unsupported global: GLOBAL numpy.core.multiarray._reconstruct ... (resume_from_checkpoint with PyTorch 2.6; transformers fixed it by allowlisting the NumPy objects of the saved RNG state with safe_globals)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 45
root-cause: line 39
expect: DG011
"""
import os
import random
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class TrainingArguments:
    output_dir: str
    num_train_epochs: int = 2
    learning_rate: float = 5e-3
    per_device_train_batch_size: int = 8
    save_steps: int = 4
    seed: int = 42


class Trainer:
    def __init__(self, model, args, train_dataset):
        self.model, self.args, self.train_dataset = model, args, train_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        self.global_step = 0

    # ---- checkpointing
    def _save_rng_state(self, output_dir):
        rng_states = {
            "python": random.getstate(),
            "numpy": np.random.get_state(),  # root-cause
            "cpu": torch.random.get_rng_state(),
        }
        torch.save(rng_states, os.path.join(output_dir, "rng_state.pth"))

    def _load_rng_state(self, checkpoint):
        checkpoint_rng_state = torch.load(os.path.join(checkpoint, "rng_state.pth"))  # fails-here
        random.setstate(checkpoint_rng_state["python"])
        np.random.set_state(checkpoint_rng_state["numpy"])
        torch.random.set_rng_state(checkpoint_rng_state["cpu"])

    def _save_checkpoint(self):
        output_dir = os.path.join(self.args.output_dir, f"checkpoint-{self.global_step}")
        os.makedirs(output_dir, exist_ok=True)
        torch.save(self.model.state_dict(), os.path.join(output_dir, "pytorch_model.bin"))
        torch.save(self.optimizer.state_dict(), os.path.join(output_dir, "optimizer.pt"))
        self._save_rng_state(output_dir)
        return output_dir

    def _load_from_checkpoint(self, checkpoint):
        self.model.load_state_dict(torch.load(os.path.join(checkpoint, "pytorch_model.bin")))
        self.optimizer.load_state_dict(torch.load(os.path.join(checkpoint, "optimizer.pt")))
        self.global_step = int(checkpoint.rsplit("-", 1)[1])

    def train(self, resume_from_checkpoint=None):
        if resume_from_checkpoint is not None:
            self._load_from_checkpoint(resume_from_checkpoint)
            self._load_rng_state(resume_from_checkpoint)
        loader = DataLoader(self.train_dataset, batch_size=self.args.per_device_train_batch_size, shuffle=True)
        last = None
        for _ in range(self.args.num_train_epochs):
            for x, y in loader:
                loss = nn.functional.cross_entropy(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                self.global_step += 1
                if self.global_step % self.args.save_steps == 0:
                    last = self._save_checkpoint()
        return last


if __name__ == "__main__":
    torch.manual_seed(0)
    np.random.seed(0)
    data = TensorDataset(torch.randn(48, 16), torch.randint(0, 3, (48,)))
    args = TrainingArguments(output_dir=tempfile.mkdtemp())
    last_checkpoint = Trainer(nn.Linear(16, 3), args, data).train()
    resumed = Trainer(nn.Linear(16, 3), args, data)
    resumed.train(resume_from_checkpoint=last_checkpoint)
    print("resumed to step", resumed.global_step)
