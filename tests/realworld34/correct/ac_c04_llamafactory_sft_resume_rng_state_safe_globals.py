"""LLaMA-Factory-style SFT resumed from checkpoint-50 where the Trainer reads rng_state.pth under torch.serialization.safe_globals with the NumPy globals of np.random.get_state() allowlisted (the transformers fix), so the default weights_only=True load accepts the NumPy RNG tuple and nothing else
source: https://github.com/hiyouga/LlamaFactory/issues/7868
reported-error: resuming SFT with resume_from_checkpoint: path/checkpoint-50 fails inside run_sft -> trainer.train(resume_from_checkpoint=...) while the checkpoint is being loaded (torch 2.6.0 + DeepSpeed 0.16.5; a comment reports the same with torch 2.4.1 + transformers 4.51.3)
outcome: ok
root-cause: -
expect: none
"""
import json
import os
import random
import tempfile
from dataclasses import dataclass
from typing import Optional

import numpy as np
import torch
import torch.nn as nn


@dataclass
class Seq2SeqTrainingArguments:
    output_dir: str
    learning_rate: float = 5e-5
    max_steps: int = 60
    save_steps: int = 50
    per_device_train_batch_size: int = 4
    resume_from_checkpoint: Optional[str] = None
    seed: int = 42


class TinyCausalLM(nn.Module):  # stand-in for the LLaMA model loaded by load_model()
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.block = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU())
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, input_ids, labels):
        logits = self.lm_head(self.block(self.embed(input_ids)))
        return nn.functional.cross_entropy(logits[:, :-1].flatten(0, 1), labels[:, 1:].flatten())


# ---- transformers/utils/import_utils.py
def safe_globals():
    # NumPy's RNG state is a tuple holding a uint32 ndarray: allowlist exactly what it needs.
    np_core = np._core if int(np.__version__.split(".")[0]) >= 2 else np.core
    allowlist = [np_core.multiarray._reconstruct, np.ndarray, np.dtype, type(np.dtype(np.uint32))]
    return torch.serialization.safe_globals(allowlist)


# ---- transformers/trainer.py (the parts that write and read checkpoint-N/)
class Trainer:
    def __init__(self, model, args, train_dataset):
        self.model, self.args, self.train_dataset = model, args, train_dataset
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        self.lr_scheduler = torch.optim.lr_scheduler.LinearLR(self.optimizer, 1.0, 0.0, total_iters=args.max_steps)
        self.global_step = 0

    def _save_rng_state(self, output_dir):
        rng_states = {
            "python": random.getstate(),
            "numpy": np.random.get_state(),
            "cpu": torch.random.get_rng_state(),
        }
        torch.save(rng_states, os.path.join(output_dir, "rng_state.pth"))

    def _load_rng_state(self, checkpoint):
        with safe_globals():
            checkpoint_rng_state = torch.load(os.path.join(checkpoint, "rng_state.pth"))
        random.setstate(checkpoint_rng_state["python"])
        np.random.set_state(checkpoint_rng_state["numpy"])
        torch.random.set_rng_state(checkpoint_rng_state["cpu"])

    def _save_checkpoint(self):
        output_dir = os.path.join(self.args.output_dir, f"checkpoint-{self.global_step}")
        os.makedirs(output_dir, exist_ok=True)
        torch.save(self.model.state_dict(), os.path.join(output_dir, "pytorch_model.bin"))
        torch.save(self.optimizer.state_dict(), os.path.join(output_dir, "optimizer.pt"))
        torch.save(self.lr_scheduler.state_dict(), os.path.join(output_dir, "scheduler.pt"))
        with open(os.path.join(output_dir, "trainer_state.json"), "w") as f:
            json.dump({"global_step": self.global_step}, f)
        self._save_rng_state(output_dir)

    def train(self, resume_from_checkpoint=None, stop_at=None):
        if resume_from_checkpoint is not None:
            self.model.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "pytorch_model.bin")))
            self.optimizer.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "optimizer.pt")))
            self.lr_scheduler.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "scheduler.pt")))
            with open(os.path.join(resume_from_checkpoint, "trainer_state.json")) as f:
                self.global_step = json.load(f)["global_step"]
            self._load_rng_state(resume_from_checkpoint)
        while self.global_step < (stop_at or self.args.max_steps):
            idx = np.random.randint(0, len(self.train_dataset), self.args.per_device_train_batch_size)
            batch = self.train_dataset[idx]
            loss = self.model(batch, batch)
            loss.backward()
            self.optimizer.step()
            self.lr_scheduler.step()
            self.optimizer.zero_grad()
            self.global_step += 1
            if self.global_step % self.args.save_steps == 0:
                self._save_checkpoint()
        return {"global_step": self.global_step, "train_loss": loss.item()}


# ---- llamafactory/train/sft/workflow.py
def run_sft(training_args, stop_at=None):
    torch.manual_seed(training_args.seed)
    model = TinyCausalLM()
    train_dataset = torch.randint(0, 64, (128, 16))  # tokenized alpaca-style samples
    trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
    train_result = trainer.train(resume_from_checkpoint=training_args.resume_from_checkpoint, stop_at=stop_at)
    print(train_result)


if __name__ == "__main__":
    output_dir = tempfile.mkdtemp()
    run_sft(Seq2SeqTrainingArguments(output_dir=output_dir), stop_at=55)  # interrupted after checkpoint-50
    run_sft(Seq2SeqTrainingArguments(output_dir=output_dir,
                                     resume_from_checkpoint=os.path.join(output_dir, "checkpoint-50")))
